import Foundation
import Testing

@testable import LaunchflowCore

/// The scenario writer (`Scenario.jsonBytes()`): every key that is not at its
/// default, in the order of ``ScenarioFields``, and the v1 keys byte for byte
/// as they have always been written (`diff` and saved files depend on it).
struct ScenarioJSONTests {
    static let everyV1Key = #"""
        {"$schema": "scenario.schema.json", "name": "All v1 \"keys\"", "description": "every key\nonce", "jitter": 0.25,
         "budgets": {"frames": 3, "timeToFirstFrameMs": 400.5},
         "device": {"cores": 6, "refreshRate": 59.94, "commitCost": 1.5, "renderTime": 4},
         "preMain": [{"name": "dyld", "cost": 80.0005}, {"name": "+load", "cost": 0}],
         "tasks": [
           {"id": "a", "cost": 8},
           {"id": "b\u00e9", "cost": 0.001, "mainThreadOnly": true, "priority": 3, "costP90": 2, "dependsOn": ["a"], "firstFrame": true},
           {"id": "c", "cost": 3600000, "priority": 1000000, "dependsOn": ["a", "b\u00e9"], "mainThreadOnly": false}
         ]}
        """#

    /// Issue 19: DEL went into JSON output raw; C1 controls too. Every control is escaped.
    static let escapes: [(text: String, written: String)] = [
        ("plain é µ ©", #""plain é µ ©""#),
        ("del\u{7F}", #""del\u007f""#),
        ("c1\u{85}\u{9B}[2J", #""c1\u0085\u009b[2J""#),
        ("nul\u{0}esc\u{1B}bell\u{07}", #""nul\u0000esc\u001bbell\u0007""#),
        ("q\"b\\n\nr\rt\t", #""q\"b\\n\nr\rt\t""#),
        ("\u{A0}nbsp \u{202E}rtl", "\"\u{A0}nbsp \u{202E}rtl\""),
    ]

    @Test(arguments: escapes)
    func jsonStringsEscapeEveryControlCharacter(_ text: String, _ written: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == written)
        #expect(!writer.bytes.contains { $0 < 0x20 || $0 == 0x7F })
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
        #expect(decoded as? String == text)
    }

    @Test func theV1KeysAreWrittenByteForByteAsBefore() throws {
        let written = String(decoding: try scenario(Self.everyV1Key).jsonBytes(), as: UTF8.self)
        #expect(
            written == #"""
                {
                  "$schema": "scenario.schema.json",
                  "name": "All v1 \"keys\"",
                  "description": "every key\nonce",
                  "device": { "cores": 6, "refreshRate": 59.94, "commitCost": 1.5, "renderTime": 4 },
                  "preMain": [
                    { "name": "dyld", "cost": 80.001 },
                    { "name": "+load", "cost": 0 }
                  ],
                  "jitter": 0.25,
                  "budgets": { "frames": 3, "timeToFirstFrameMs": 400.5 },
                  "tasks": [
                    { "id": "a", "cost": 8 },
                    { "id": "bé", "cost": 0.001, "mainThreadOnly": true, "firstFrame": true, "priority": 3, "costP90": 2, "dependsOn": ["a"] },
                    { "id": "c", "cost": 3600000, "priority": 1000000, "dependsOn": ["a", "bé"] }
                  ]
                }

                """#)
    }

    @Test func aMinimalScenarioStillShowsTheDeviceAndPreMain() throws {
        let written = String(
            decoding: try scenario(#"{"name": "min", "tasks": [{"id": "x", "cost": 1}]}"#).jsonBytes(), as: UTF8.self)
        #expect(
            written == """
                {
                  "name": "min",
                  "device": { "cores": 4, "refreshRate": 60, "commitCost": 0, "renderTime": 0 },
                  "preMain": [],
                  "tasks": [
                    { "id": "x", "cost": 1 }
                  ]
                }

                """)
    }

    @Test func writtenScenariosReadBackEqual() throws {
        let original = try scenario(Self.everyV1Key)
        let again = try scenario(String(decoding: original.jsonBytes(), as: UTF8.self))
        #expect(again.tasks == original.tasks && again.device == original.device && again.preMain == original.preMain)
        #expect(again.budgets == original.budgets && again.jitter == original.jitter && again.name == original.name)
        #expect(again.description == original.description)
        #expect(again.jsonBytes() == original.jsonBytes())
    }

    @Test func v2KeysAreWrittenInRowOrderWhenNotAtTheirDefault() throws {
        let s = try scenario(
            #"""
            {"name": "v2", "inputs": [{"cost": 20, "at": 500}, {"name": "scroll", "at": 600, "cost": 3}], "idleMode": "oneByOne",
             "tasks": [{"group": "Auth", "id": "a", "cost": 1, "queue": "alerts", "latency": 300, "anchor": true, "delay": 2.5,
                        "latencyP90": 900},
                       {"id": "b", "cost": 1, "mainThreadOnly": true, "idle": true, "dependsOn": ["a"], "anchor": false}]}
            """#)
        #expect(
            String(decoding: s.jsonBytes(), as: UTF8.self) == #"""
                {
                  "name": "v2",
                  "device": { "cores": 4, "refreshRate": 60, "commitCost": 0, "renderTime": 0 },
                  "preMain": [],
                  "idleMode": "oneByOne",
                  "inputs": [
                    { "at": 500, "cost": 20 },
                    { "name": "scroll", "at": 600, "cost": 3 }
                  ],
                  "tasks": [
                    { "id": "a", "cost": 1, "latency": 300, "latencyP90": 900, "delay": 2.5, "queue": "alerts", "anchor": true, "group": "Auth" },
                    { "id": "b", "cost": 1, "mainThreadOnly": true, "idle": true, "dependsOn": ["a"] }
                  ]
                }

                """#)
        let again = try scenario(String(decoding: s.jsonBytes(), as: UTF8.self))
        #expect(again.tasks == s.tasks && again.inputs == s.inputs && again.idleMode == s.idleMode)
    }
}
