import Foundation
import Testing

@testable import LaunchflowCore

/// Decodes a scenario from JSON text (failing the test with its problems).
func scenario(_ json: String, file: String = "test.json") throws -> Scenario {
    do {
        return try ScenarioLoader.decode(Array(json.utf8), file: file)
    } catch {
        Issue.record("scenario rejected:\n\(error)")
        throw error
    }
}

/// The problems a scenario is rejected with, one `error: …` line each.
func problems(_ json: String, file: String = "s.json") -> [String] {
    do {
        _ = try ScenarioLoader.decode(Array(json.utf8), file: file)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

/// The §6 JSON object of a run, parsed.
func resultObject(_ scenario: Scenario, _ strategy: Strategy, maxConcurrent: Int? = nil, idleMode: IdleMode? = nil)
    throws -> [String: Any]
{
    var writer = JSONWriter()
    writer.result(
        SimulationResult(
            scenario, strategy: strategy, options: SimulationOptions(maxConcurrent: maxConcurrent, idleMode: idleMode)))
    return try #require(JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
}

/// Differences between two JSON values; numbers compare within 1e-9 (so
/// milliseconds compare exactly to the microsecond).
func jsonDifferences(_ expected: Any, _ actual: Any, path: String = "$") -> [String] {
    switch (expected, actual) {
    case (let e as [String: Any], let a as [String: Any]):
        var out: [String] = []
        for key in e.keys.sorted() {
            guard let value = a[key] else {
                out.append("\(path).\(key): missing")
                continue
            }
            out += jsonDifferences(e[key]!, value, path: "\(path).\(key)")
        }
        // Two-way: a key the expectation does not record (a new metric, a new
        // strategy) is a difference too, so it cannot pass unrecorded.
        for key in a.keys.sorted() where e[key] == nil {
            out.append("\(path).\(key): not in the expectation (got \(a[key]!))")
        }
        return out
    case (let e as [Any], let a as [Any]):
        guard e.count == a.count else { return ["\(path): expected \(e.count) elements, got \(a.count)"] }
        return zip(e, a).enumerated().flatMap { jsonDifferences($1.0, $1.1, path: "\(path)[\($0)]") }
    case (let e as String, let a as String):
        return e == a ? [] : ["\(path): expected \(e), got \(a)"]
    case (let e as NSNumber, let a as NSNumber):
        let x = e.doubleValue
        let y = a.doubleValue
        return abs(x - y) <= 1e-9 * max(1, abs(x)) ? [] : ["\(path): expected \(x), got \(y)"]
    default:
        return ["\(path): expected \(expected), got \(actual)"]
    }
}

/// A file of the fixture folder (Tests/LaunchflowTests/Fixtures), read in
/// place, so that every test target reaches it.
func fixtureURL(_ name: String) -> URL {
    repositoryRoot.appendingPathComponent("Tests/LaunchflowTests/Fixtures").appendingPathComponent(name)
}

/// The repository root (for the bundled scenarios).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
