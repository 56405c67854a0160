/// (MODEL.md §7.3, docs/model.md §3.12) The rules between the launch phases
/// and `startsIn`, for a file and for a scenario built in code: unique
/// names, and a `startsIn` — given, or by its default — that names a phase;
/// `startsIn` without phases is an error.
package enum LaunchPhaseRules {
    /// Every problem, at the phase or key it is about (offset 0: the caller orders them).
    package static func problems(_ phases: [LaunchPhase], startsIn: String?) -> [LocatedProblem] {
        var found: [LocatedProblem] = []
        guard !phases.isEmpty else {
            if startsIn != nil {
                found.append(
                    LocatedProblem(
                        offset: 0, location: .root("startsIn"),
                        message:
                            "startsIn names the launch phase in which didFinishLaunching runs, but the scenario has no launchPhases (add them, or leave startsIn out)"
                    ))
            }
            return found
        }
        let seen = IDTable(phases.map(\.name)) { k, first in
            found.append(
                LocatedProblem(
                    offset: 0, location: .launchPhase(k, "name"),
                    message: "phase '\(phases[k].name)' is declared twice (first at launchPhases[\(first)])",
                    kind: .duplicateID))
        }
        let name = startsIn ?? Scenario.defaultStartsIn
        if seen.index(of: name) == nil {
            let names = phases.map(\.name).filter { !$0.isEmpty }
            let listed = names.map { "'\($0)'" }.joined(separator: ", ")
            let message =
                startsIn == nil
                ? "no launch phase is named '\(name)', where didFinishLaunching runs by default: name the phase that runs it with startsIn (the phases are \(listed))"
                : "names no launch phase: '\(name)' (the phases are \(listed))"
            found.append(
                LocatedProblem(
                    offset: 0, location: .root(startsIn == nil ? "launchPhases" : "startsIn"), message: message,
                    suggestion: closestMatch(to: name, in: names)))
        }
        return found
    }
}
