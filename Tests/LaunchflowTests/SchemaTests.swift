import Foundation
import Testing

@testable import LaunchflowCore

/// scenarios/scenario.schema.json and the scenario decoder agree: the same
/// keys, every bundled scenario accepted by both, and the same verdict on a
/// table of documents.
struct SchemaTests {
    static let schemaURL = repositoryRoot.appendingPathComponent("scenarios/scenario.schema.json")
    static let bundled = ["article", "tiers-only", "dependencies-only", "large-app"]

    func schema() throws -> MiniSchema { try MiniSchema([UInt8](Data(contentsOf: Self.schemaURL))) }

    func keys(_ object: JSONValue?) -> Set<String> {
        guard case .object(let members)? = object else { return [] }
        return Set(members.map(\.key))
    }

    @Test func theSchemaIsDraft2020_12AndUsesOnlyTheCheckedSubset() throws {
        let schema = try schema()
        #expect(schema.root["$schema"]?.string == "https://json-schema.org/draft/2020-12/schema")
        // Validating the schema's own keywords: an unsupported keyword anywhere shows up as an error.
        var unsupported: [String] = []
        func walk(_ value: JSONValue, _ path: String, isSchema: Bool) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if isSchema, !MiniSchema.annotations.contains(key), !MiniSchema.assertions.contains(key) {
                        unsupported.append("\(path).\(key)")
                    }
                    let childIsSchema = isSchema && ["items", "additionalProperties", "if", "then"].contains(key)
                    let mapOfSchemas = isSchema && ["properties", "$defs"].contains(key)
                    if mapOfSchemas, case .object(let entries) = member {
                        for (name, sub) in entries { walk(sub, "\(path).\(key).\(name)", isSchema: true) }
                    } else if isSchema, key == "allOf", case .array(let schemas) = member {
                        for (k, sub) in schemas.enumerated() { walk(sub, "\(path).allOf[\(k)]", isSchema: true) }
                    } else if childIsSchema {
                        walk(member, "\(path).\(key)", isSchema: true)
                    }
                }
            default: break
            }
        }
        walk(schema.root, "$", isSchema: true)
        #expect(unsupported.isEmpty, "\(unsupported)")
    }

    /// The committed schema is the one ``ScenarioSchema`` generates from the field table.
    @Test func theSchemaIsGeneratedFromTheFieldTable() throws {
        let generated = ScenarioSchema.jsonSchema()
        if ProcessInfo.processInfo.environment["LAUNCHFLOW_REGENERATE"] != nil {
            try generated.write(to: Self.schemaURL, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.schemaURL, encoding: .utf8)
        #expect(
            committed == generated,
            "scenarios/scenario.schema.json is not what the field table gives: LAUNCHFLOW_REGENERATE=1 swift test --filter SchemaTests rewrites it"
        )
    }

    static let readmeURL = repositoryRoot.appendingPathComponent("docs/scenarios.md")
    static let tableStart =
        "<!-- scenario keys: generated from Sources/LaunchflowModel/Model/ScenarioFields.swift -->\n"
    static let tableEnd = "<!-- end of scenario keys -->"

    /// docs/scenarios.md's key table is the one ``ScenarioSchema`` generates from the field table.
    @Test func theReadmeKeyTableIsGeneratedFromTheFieldTable() throws {
        var readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
        let start = try #require(readme.range(of: Self.tableStart), "docs/scenarios.md has no generated key table")
        let end = try #require(readme.range(of: Self.tableEnd, range: start.upperBound..<readme.endIndex))
        let generated = ScenarioSchema.markdownKeyTable()
        if ProcessInfo.processInfo.environment["LAUNCHFLOW_REGENERATE"] != nil {
            readme.replaceSubrange(start.upperBound..<end.lowerBound, with: generated)
            try readme.write(to: Self.readmeURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(readme[start.upperBound..<end.lowerBound]) == generated,
            "docs/scenarios.md's key table is not what the field table gives: LAUNCHFLOW_REGENERATE=1 swift test --filter SchemaTests rewrites it"
        )
    }

    /// Field for field, independently of the generator: every row has its
    /// property with the row's type, nullability, limits, choices and default,
    /// every property has its row, and `required` lists the required rows.
    @Test func everyRowIsItsSchemaProperty() throws {
        let schema = try schema()
        let root = schema.root
        var problems: [String] = []
        func resolved(_ value: JSONValue?) -> JSONValue? {
            guard let reference = value?["$ref"]?.string else { return value }
            return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
        }
        func strings(_ value: JSONValue?) -> [String] {
            switch value {
            case .string(let text)?: [text]
            case .array(let items)?: items.compactMap(\.string)
            default: []
            }
        }
        func number(_ value: JSONValue?) -> Double? {
            if case .number(let x)? = value { return x }
            return nil
        }
        func check<Model>(_ table: FieldTable<Model>, _ object: JSONValue?, _ path: String) {
            let properties = object?["properties"]
            if keys(properties) != Set(table.keys) { problems.append("\(path): keys \(keys(properties).sorted())") }
            let required = Set(strings(object?["required"]))
            if required != Set(table.fields.filter(\.required).map(\.key)) {
                problems.append("\(path): required \(required.sorted())")
            }
            for field in table.fields {
                let at = "\(path).\(field.key)"
                guard let property = properties?[field.key], let type = resolved(property) else {
                    problems.append("\(at): missing")
                    continue
                }
                let jsonType: String
                switch field.type {
                case .string: jsonType = "string"
                case .bool: jsonType = "boolean"
                case .integer: jsonType = "integer"
                case .number, .ms: jsonType = "number"
                case .idList, .array: jsonType = "array"
                case .object: jsonType = "object"
                }
                let types = strings(type["type"])
                if !types.contains(jsonType) || types.contains("null") == field.required {
                    problems.append(
                        "\(at): type \(types) for a \(field.required ? "required" : "optional") \(field.type)")
                }
                let limits = field.type == .ms ? FieldLimits.milliseconds : field.limits
                let minimumKey = limits.minimumIsExclusive ? "exclusiveMinimum" : "minimum"
                if number(type[minimumKey]) != limits.minimum || number(type["maximum"]) != limits.maximum {
                    problems.append("\(at): limits")
                }
                if (number(type["minLength"]) == 1) != (field.limits.nonEmpty != nil) {
                    problems.append("\(at): minLength")
                }
                if strings(type["enum"]) != (field.limits.choices ?? []) { problems.append("\(at): enum") }
                let expectedDefault = ScenarioSchema.defaultValue(field, table.defaults)
                if field.defaultPrefix == nil,
                    property["default"].map(MiniSchema.canonical) != expectedDefault.map(MiniSchema.canonical)
                {
                    problems.append("\(at): default")
                }
                if property["description"]?.string?.lowercased().hasPrefix(field.doc.prefix(20).lowercased()) != true {
                    problems.append("\(at): description is not the row's doc")
                }
            }
        }
        let properties = root["properties"]
        check(ScenarioFields.root, root, "$")
        check(ScenarioFields.device, properties?["device"], "$.device")
        check(ScenarioFields.preMain, properties?["preMain"]?["items"], "$.preMain[]")
        check(ScenarioFields.task, properties?["tasks"]?["items"], "$.tasks[]")
        if ScenarioFields.root["inputs"] != nil {
            check(ScenarioFields.input, properties?["inputs"]?["items"], "$.inputs[]")
        }
        #expect(keys(properties?["budgets"]?["properties"]) == Set(Metric.allCases.map(\.rawValue)))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func everyPropertyHasADescriptionForEditors() throws {
        var missing: [String] = []
        func walk(_ value: JSONValue?, _ path: String) {
            guard case .object(let members)? = value?["properties"] else { return }
            for (key, member) in members {
                if member["description"]?.string?.isEmpty != false { missing.append("\(path).\(key)") }
                walk(member, "\(path).\(key)")
                walk(member["items"], "\(path).\(key)[]")
            }
        }
        walk(try schema().root, "$")
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test(arguments: bundled)
    func everyBundledScenarioValidatesAndDecodes(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("scenarios/\(name).json")))
        let errors = try schema().errors(try JSONValue.parse(bytes))
        #expect(errors.isEmpty, "\(name): \(errors)")
        let scenario = try ScenarioLoader.decode(bytes, file: name)
        #expect(scenario.schema == "scenario.schema.json")
    }

    static let minimal = #"{"name": "x", "tasks": [{"id": "a", "cost": 1}]}"#

    /// Documents both must accept.
    static let accepted: [String] = [
        minimal,
        #"{"$schema": "scenario.schema.json", "name": "x", "description": null, "device": null, "preMain": null, "budgets": null, "jitter": null, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"cores": 4.0, "refreshRate": 120, "commitCost": 0.5, "renderTime": null}, "tasks": [{"id": "a", "cost": 1, "priority": 2.0}]}"#,
        #"{"name": "x", "preMain": [{"name": "dyld", "cost": 80}], "tasks": [{"id": "a", "cost": 0}, {"id": "b", "cost": 3600000, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a"], "costP90": 3600000}]}"#,
        #"{"name": "x", "budgets": {"timeToFirstFrameMs": 400, "cpuUtilization": 0.3, "frames": null}, "jitter": 0.2, "tasks": [{"id": "a", "cost": 1, "dependsOn": null, "mainThreadOnly": null, "firstFrame": false}]}"#,
        #"{"name": "x", "idleMode": "oneByOne", "inputs": [{"at": 500, "cost": 20}, {"name": "tap", "at": 0, "cost": 0}], "tasks": [{"id": "a", "cost": 1, "latency": 300, "latencyP90": 400, "delay": 5, "queue": "alerts", "anchor": true, "group": "Auth"}, {"id": "b", "cost": 1, "mainThreadOnly": true, "idle": true, "queue": null, "group": null, "latencyP90": null}]}"#,
        #"{"name": "x", "idleMode": null, "inputs": null, "tasks": [{"id": "a", "cost": 1, "idle": false, "anchor": null}]}"#,
    ]

    /// Documents both must reject (each breaks one rule the schema can express).
    static let rejected: [String] = [
        #"{"name": "x", "colour": "red", "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"core": 4}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cots": 1}]}"#,
        #"{"name": "x", "preMain": [{"name": "dyld"}], "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "preMain": [{"name": "dyld", "cost": 1, "extra": 1}], "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": null, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x"}"#,
        #"{"name": "x", "tasks": []}"#,
        #"{"name": "x", "tasks": [{"cost": 1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a"}]}"#,
        #"{"name": "x", "tasks": [{"id": "", "cost": 1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": -1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 3600001}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": "8"}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "priority": -1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "priority": 1.5}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "priority": 1000001}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "mainThreadOnly": 1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["a", "a"]}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": [1]}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "firstFrame": true}]}"#,
        #"{"name": "x", "device": {"cores": 1}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"cores": 4.5}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"cores": 1025}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"refreshRate": 0}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"refreshRate": 1001}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "device": {"commitCost": -1}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "budgets": {"timeToFirstFrame": 400}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "budgets": {"frames": -1}, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "jitter": -0.1, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "$schema": 3, "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "latency": -1}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "delay": 3600001}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "queue": ""}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "group": ""}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "idle": true}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "mainThreadOnly": false, "idle": true}]}"#,
        #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "anchor": 1}]}"#,
        #"{"name": "x", "idleMode": "lazy", "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "inputs": [{"at": 1}], "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "inputs": [{"cost": 1}], "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "inputs": [{"name": "", "at": 1, "cost": 1}], "tasks": [{"id": "a", "cost": 1}]}"#,
        #"{"name": "x", "inputs": [null], "tasks": [{"id": "a", "cost": 1}]}"#,
        "[1, 2]",
    ]

    @Test(arguments: accepted.indices)
    func bothAccept(_ k: Int) throws {
        let json = Self.accepted[k]
        #expect(try schema().errors(JSONValue.parse(Array(json.utf8))).isEmpty, "\(json)")
        #expect(problems(json).isEmpty, "\(json): \(problems(json))")
    }

    @Test(arguments: rejected.indices)
    func bothReject(_ k: Int) throws {
        let json = Self.rejected[k]
        #expect(!(try schema().errors(JSONValue.parse(Array(json.utf8)))).isEmpty, "schema accepts \(json)")
        #expect(!problems(json).isEmpty, "decoder accepts \(json)")
    }

    /// Rules only the decoder can check (they relate tasks to each other): the schema accepts these.
    @Test func relationsBetweenTasksAreTheDecodersAlone() throws {
        let documents = [
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "dependsOn": ["b"]}]}"#,
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "a", "cost": 2}]}"#,
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "dependsOn": ["a"]}]}"#,
            #"{"name": "x", "tasks": [{"id": "a", "cost": 2, "costP90": 1}]}"#,
            #"{"name": "x", "tasks": [{"id": "a", "cost": 2, "latency": 2, "latencyP90": 1}]}"#,
        ]
        for json in documents {
            #expect(try schema().errors(JSONValue.parse(Array(json.utf8))).isEmpty, "\(json)")
            #expect(!problems(json).isEmpty, "\(json)")
        }
    }
}
