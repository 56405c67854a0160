import Foundation
import Testing

@testable import LaunchflowCore

/// The cost sampler: lognormal medians and p90s, seeds, edge cases.
struct SamplingTests {
    /// Two tasks: `fixedP90` (10 ms, p90 20 ms) and `jittered` (8 ms, σ from the scenario).
    static let json = #"""
        { "name": "sampling", "jitter": 0.25,
          "tasks": [
            { "id": "with-p90", "cost": 10, "costP90": 20 },
            { "id": "jittered", "cost": 8 },
            { "id": "free", "cost": 0 },
            { "id": "pinned", "cost": 5, "costP90": 5 }
          ] }
        """#

    /// Nearest-rank percentile of task `task`'s cost over `runs` runs (µs).
    func sampledPercentiles(_ sampler: CostSampler, task: Int, runs: Int, seed: UInt64) -> (p50: Micros, p90: Micros) {
        var costs = sampler.medians
        var values: [Micros] = []
        values.reserveCapacity(runs)
        for run in 0..<runs {
            sampler.sample(run: run, seed: seed, into: &costs)
            values.append(costs[task])
        }
        values.sort()
        return (Distribution.percentile(50, ofSorted: values), Distribution.percentile(90, ofSorted: values))
    }

    @Test func lognormalMedianAndP90AreWithinTwoPercentOn100kDraws() throws {
        let sampler = try CostSampler(try scenario(Self.json))
        let p90Task = sampledPercentiles(sampler, task: 0, runs: 100_000, seed: 2024)
        #expect(abs(Double(p90Task.p50) / 10_000 - 1) < 0.02, "median \(p90Task.p50) µs, expected 10000")
        #expect(abs(Double(p90Task.p90) / 20_000 - 1) < 0.02, "p90 \(p90Task.p90) µs, expected 20000")

        // σ = jitter: p90 = median × e^(σ·z₀.₉).
        let jittered = sampledPercentiles(sampler, task: 1, runs: 100_000, seed: 99)
        let expectedP90 = 8_000 * exp(0.25 * CostSampler.z90)
        #expect(abs(Double(jittered.p50) / 8_000 - 1) < 0.02, "median \(jittered.p50) µs, expected 8000")
        #expect(abs(Double(jittered.p90) / expectedP90 - 1) < 0.02, "p90 \(jittered.p90) µs, expected \(expectedP90)")
    }

    @Test func sigmaFollowsFromTheMedianAndP90() throws {
        let sampler = try CostSampler(try scenario(Self.json))
        #expect(abs(sampler.sigmas[0] - log(2) / 1.2815515655446004) < 1e-15)
        #expect(sampler.sigmas[1] == 0.25)
        #expect(sampler.sigmas[2] == 0)  // a median of 0 stays 0
        #expect(sampler.sigmas[3] == 0)  // costP90 == cost: fixed
        #expect(sampler.p90Tasks == 1 && sampler.jitterTasks == 1 && sampler.uncertainTaskCount == 2)
        // --jitter overrides the scenario's.
        #expect(try CostSampler(try scenario(Self.json), jitter: 0).sigmas == [sampler.sigmas[0], 0, 0, 0])
    }

    @Test func fixedTasksKeepTheirCostInEveryRun() throws {
        let sampler = try CostSampler(try scenario(Self.json))
        var costs = [Micros](repeating: -1, count: 4)
        for run in 0..<1000 {
            sampler.sample(run: run, seed: 5, into: &costs)
            #expect(costs[2] == 0 && costs[3] == 5_000)
            #expect(costs[0] > 0 && costs[1] > 0)
        }
    }

    @Test func withoutUncertaintyEverySampleIsTheScenariosCosts() throws {
        let plain = try scenario(#"{"name": "p", "tasks": [{"id": "a", "cost": 3}, {"id": "b", "cost": 0.0015}]}"#)
        let sampler = try CostSampler(plain)
        #expect(sampler.isDeterministic)
        var costs = [Micros](repeating: 0, count: 2)
        for run in 0..<100 {
            sampler.sample(run: run, seed: UInt64(run) * 7919, into: &costs)
            #expect(costs == [3_000, 2])
        }
    }

    @Test func aRunsCostsDependOnlyOnTheSeedAndTheRunIndex() throws {
        let sampler = try CostSampler(try scenario(Self.json))
        var a = sampler.medians
        var b = sampler.medians
        sampler.sample(run: 41, seed: 3, into: &a)
        sampler.sample(run: 40, seed: 3, into: &b)
        sampler.sample(run: 41, seed: 3, into: &b)
        #expect(a == b)
        sampler.sample(run: 41, seed: 4, into: &b)
        #expect(a != b)
        // Seeds of different runs differ (the SplitMix64 finaliser is a bijection).
        let seeds = Set((0..<100_000).map { CostSampler.runSeed(base: 12345, run: $0) })
        #expect(seeds.count == 100_000)
        // Run r's seed is the r-th output of SplitMix64(base).
        var generator = SplitMix64(seed: 12345)
        for run in 0..<10 { #expect(CostSampler.runSeed(base: 12345, run: run) == generator.next()) }
    }

    @Test func makingOneTaskUncertainDoesNotChangeTheOthersDraws() throws {
        let one = try scenario(
            #"{"name": "s", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 4, "costP90": 6}]}"#)
        let two = try scenario(
            #"{"name": "s", "tasks": [{"id": "a", "cost": 1, "costP90": 3}, {"id": "b", "cost": 4, "costP90": 6}]}"#)
        let first = try CostSampler(one)
        let second = try CostSampler(two)
        var x = first.medians
        var y = second.medians
        for run in 0..<200 {
            first.sample(run: run, seed: 8, into: &x)
            second.sample(run: run, seed: 8, into: &y)
            #expect(x[1] == y[1])
        }
    }

    @Test func hugeSigmaIsCappedAtAnHourInsteadOfOverflowing() throws {
        let wild = try scenario(#"{"name": "w", "jitter": 1000, "tasks": [{"id": "a", "cost": 3600000}]}"#)
        let sampler = try CostSampler(wild)
        var costs = [Micros](repeating: 0, count: 1)
        var sawCap = false
        for run in 0..<200 {
            sampler.sample(run: run, seed: 1, into: &costs)
            #expect(costs[0] >= 0 && costs[0] <= CostSampler.maximumCost)
            sawCap = sawCap || costs[0] == CostSampler.maximumCost
        }
        #expect(sawCap)
    }

    @Test func aPositiveP90OverAZeroMedianIsIgnoredAndListed() throws {
        let zero = try scenario(
            #"{"name": "b", "tasks": [{"id": "a", "cost": 0, "costP90": 2}, {"id": "b", "cost": 0, "costP90": 0}]}"#)
        let sampler = try CostSampler(zero)
        #expect(sampler.ignoredP90Tasks == [0])
        #expect(sampler.sigmas == [0, 0] && sampler.isDeterministic)
    }

    @Test func aNegativeJitterBuiltInCodeIsAnErrorNotATrap() throws {
        var unchecked = try scenario(#"{"name": "j", "tasks": [{"id": "a", "cost": 1}]}"#)
        for jitter in [-1, Double.nan, .infinity] {
            unchecked.jitter = jitter
            do {
                _ = try CostSampler(unchecked)
                Issue.record("jitter \(jitter) was accepted")
            } catch {
                #expect(error.problems.map(\.path) == ["jitter"])
            }
        }
    }

    @Test func normalQuantileMatchesKnownValues() {
        let known: [(p: Double, z: Double)] = [
            (0.5, 0), (0.9, 1.2815515655446004), (0.975, 1.959963984540054), (0.1, -1.2815515655446004),
            (0.01, -2.3263478740408408), (0.999, 3.090232306167813), (1e-10, -6.361340902404056),
        ]
        for (p, z) in known {
            #expect(abs(NormalDistribution.quantile(p) - z) <= 1e-8 * max(1, abs(z)), "Φ⁻¹(\(p))")
        }
        // The extreme 53-bit draws stay finite.
        #expect(NormalDistribution.quantile(openUnit: 0).isFinite)
        #expect(NormalDistribution.quantile(openUnit: .max).isFinite)
        #expect(NormalDistribution.quantile(openUnit: 0) == -NormalDistribution.quantile(openUnit: .max))
    }
}
