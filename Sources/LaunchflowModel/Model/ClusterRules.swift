/// (MODEL.md §7.4, docs/model.md §3.13) The rules between the clusters and
/// the rest of the device, for a file and for a scenario built in code:
/// unique names, at least one cluster at speed 1, not together with `cpus`,
/// and (without `cores`) no more threads than `cores` allows.
package enum ClusterRules {
    /// Every problem, at the key or cluster it is about (offset 0: the caller orders them).
    package static func problems(_ device: Device, coresGiven: Bool) -> [LocatedProblem] {
        guard !device.clusters.isEmpty else { return [] }
        var found: [LocatedProblem] = []
        func report(_ location: Location, _ message: String, kind: Diagnostic.Kind = .other) {
            found.append(LocatedProblem(offset: 0, location: location, message: message, kind: kind))
        }
        _ = IDTable(device.clusters.map(\.name)) { k, first in
            report(
                .cluster(k, "name"),
                "cluster '\(device.clusters[k].name)' is declared twice (first at device.clusters[\(first)])",
                kind: .duplicateID)
        }
        // Speeds out of range are reported at the speed; the rule between clusters needs valid ones.
        let speeds = device.clusters.map(\.speed)
        if speeds.allSatisfy({ $0 > 0 && $0 <= 1 }), !device.clusters.contains(where: { $0.speedThousandths == 1000 }) {
            report(
                .device("clusters"),
                "no cluster has speed 1: costs are times on the fastest core, so the fastest cluster's speed is 1 (the others' relative to it)"
            )
        }
        if device.cpus != nil {
            report(
                .device("cpus"),
                device.preset != nil
                    ? "cpus cannot be used with a preset: the preset's clusters already say how many CPUs there are and how fast each is"
                    : "cpus and clusters cannot be used together: clusters already say how many CPUs there are (their counts) and how fast each is"
            )
        }
        let total = device.clusters.reduce(0) { $0 + max($1.count, 0) }
        if !coresGiven && total > 1024 {
            report(
                .device("clusters"),
                "the clusters hold \(total) cores, and without device.cores each would get a thread: at most 1024 (set device.cores)"
            )
        }
        return found
    }
}
