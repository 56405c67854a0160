import Foundation
import Testing

@testable import LaunchflowCore

/// Schedules derived by hand from MODEL.md, one fixture per case, each with its
/// derivation written out step by step in its `derivation` field
/// (Fixtures/handworked/*.json). They were derived independently of this code.
struct HandworkedScheduleTests {
    static let cases: [String] = {
        let folder = fixtureURL("handworked")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func thereAreAtLeastADozenCases() {
        #expect(Self.cases.count >= 12)
    }

    @Test(arguments: cases)
    func scheduleMatchesTheHandDerivation(_ name: String) throws {
        let data = try Data(contentsOf: fixtureURL("handworked").appendingPathComponent(name))
        let fixture = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let scenarioData = try JSONSerialization.data(withJSONObject: try #require(fixture["scenario"]))
        let scenario = try ScenarioLoader.decode(Array(scenarioData), file: name)
        let strategyName = try #require(fixture["strategy"] as? String)
        let strategy = try #require(Strategy(rawValue: strategyName))
        let maxConcurrent = fixture["maxConcurrent"] as? Int
        let idleMode = (fixture["idleMode"] as? String).flatMap(IdleMode.init(rawValue:))
        let actual = try resultObject(scenario, strategy, maxConcurrent: maxConcurrent, idleMode: idleMode)
        let differences = jsonDifferences(try #require(fixture["expected"]), actual)
        #expect(differences.isEmpty, "\(name) (\(fixture["title"] ?? "")):\n\(differences.joined(separator: "\n"))")
    }
}
