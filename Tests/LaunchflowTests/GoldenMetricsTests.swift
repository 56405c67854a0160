import Foundation
import Testing

@testable import LaunchflowCore

/// Golden metrics of every bundled scenario under every strategy
/// (Fixtures/golden/<scenario>.json). A change to the engine that moves any of
/// them fails here. To re-record them on purpose, after checking the change
/// is intended: `RECORD=1 swift test --filter GoldenMetricsTests` (the recording run
/// fails on purpose; the next run without RECORD checks what it wrote).
struct GoldenMetricsTests {
    /// Every bundled scenario (`scenarios/*.json`).
    static let scenarios: [String] = {
        let folder = repositoryRoot.appendingPathComponent("scenarios").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.map { String($0.dropLast(5)) }
            .sorted()
    }()

    @Test func everyBundledScenarioHasAGoldenFile() throws {
        #expect(Self.scenarios.count >= 8)
        for name in Self.scenarios {
            #expect(
                FileManager.default.fileExists(atPath: Self.sourceFixtures.appendingPathComponent("\(name).json").path),
                "\(name)")
        }
    }

    static var sourceFixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/golden")
    }

    @Test(arguments: scenarios)
    func metricsMatchTheGoldenFile(_ name: String) throws {
        let scenario = try ScenarioLoader.load(
            path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path)
        var actual: [String: [String: Double]] = [:]
        for result in SimulationResult.compare(scenario, strategies: Strategy.allCases) {
            var metrics: [String: Double] = [:]
            for metric in Metric.allCases { metrics[metric.rawValue] = result.metrics.value(metric) }
            actual[result.schedule.strategy.rawValue] = metrics
        }
        let golden = Self.sourceFixtures.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["RECORD"] == "1" {
            try FileManager.default.createDirectory(at: Self.sourceFixtures, withIntermediateDirectories: true)
            let data = try JSONSerialization.data(withJSONObject: actual, options: [.prettyPrinted, .sortedKeys])
            try (data + Data("\n".utf8)).write(to: golden)
            // A recording run checks nothing: it fails, so that RECORD=1 cannot pass CI.
            Issue.record(
                "\(name): recorded \(golden.lastPathComponent); run the tests again without RECORD to check it")
            return
        }
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: golden))
        let differences = jsonDifferences(expected, actual)
        #expect(
            differences.isEmpty, "\(name): \(differences.joined(separator: "\n")) — re-record with RECORD=1 if intended"
        )
    }
}
