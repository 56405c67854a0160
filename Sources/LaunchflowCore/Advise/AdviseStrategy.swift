/// The plan's switch of strategy (issue 35 item 5): the app runs `from` today
/// (the file's `"strategy"`, else dag), the plan runs under `to`. Its effect
/// is the switch alone: the scenario as written under `to` against the
/// scenario as written under `from` — the plan's other changes are measured
/// under `to`, each by taking it out of the plan.
public struct AdviseStrategyChange: Sendable {
    public let from: Strategy
    public let to: Strategy
    /// The scenario as written under `from` (the plan's baseline) and under `to`.
    public let written: Metrics
    public let switched: Metrics
    /// The objective as written under `from` minus under `to` (µs; positive: the switch helps).
    public let gain: Micros
    /// The best plan found that keeps `from` (nil when none meets the constraints).
    public let keeping: AdviseAlternative?

    init(
        from: Strategy, to: Strategy, written: Metrics, switched: Metrics, objective: AdviseObjective,
        keeping: AdviseAlternative?
    ) {
        self.from = from
        self.to = to
        self.written = written
        self.switched = switched
        gain = objective.value(written) - objective.value(switched)
        self.keeping = keeping
    }

    /// Its effects as a change's: what moves beside the objective, positive
    /// when the switch lowers it (the blocked time: positive when it grows).
    var effects: AdviseReport.Effects {
        AdviseReport.Effects(
            objective: gain, firstFrame: written.timeToFirstFrame - switched.timeToFirstFrame,
            ready: written.firstFrameReady - switched.firstFrameReady,
            full: written.timeToFullDisplay - switched.timeToFullDisplay,
            launch: written.launchComplete - switched.launchComplete,
            blocked: switched.mainThreadBlocked - written.mainThreadBlocked,
            inputDelay: written.maxInputDelay - switched.maxInputDelay,
            inputLatency: written.inputLatencyMax - switched.inputLatencyMax, margin: switched.margin - written.margin)
    }

    /// `strategy: serial → dag: −83.335 ms, the switch alone on the file as
    /// written (launch complete −45 ms, …; commits (frames) 1 → 4)`.
    func line(_ plan: AdvicePlan) -> String {
        var more = AdviseReport.secondary(effects, plan: plan)
        if switched.frames != written.frames {
            let frames = "commits (frames) \(written.frames) → \(switched.frames)"
            more = more.isEmpty ? " (" + frames + ")" : String(more.dropLast()) + "; " + frames + ")"
        }
        return
            "strategy: \(from.rawValue) → \(to.rawValue): \(AdviseReport.gainText(gain)), the switch alone on the file as written\(more)"
    }

    /// What the switch means for the code, and what the best plan that keeps
    /// the app's strategy reaches, with what this plan gains and costs against
    /// it (the other changes are measured under the new strategy).
    func details(_ plan: AdvicePlan) -> [String] {
        var out = ["how — " + AdviseMechanism.strategyText(to: to, AdviseMechanism.platform(plan))]
        let measured = plan.changes.isEmpty ? "" : "; the changes below are measured under \(to.rawValue)"
        guard let keeping else {
            if !measured.isEmpty { out.append("the changes below are measured under \(to.rawValue)") }
            return out
        }
        guard keeping.changeCount > 0 else {
            out.append("keeping \(from.rawValue), no change improves on the file as written\(measured)")
            return out
        }
        let objective = plan.configuration.objective
        let kept = keeping.metrics
        let against = AdviseReport.Effects(
            objective: objective.value(kept) - objective.value(plan.metrics),
            firstFrame: kept.timeToFirstFrame - plan.metrics.timeToFirstFrame,
            ready: kept.firstFrameReady - plan.metrics.firstFrameReady,
            full: kept.timeToFullDisplay - plan.metrics.timeToFullDisplay,
            launch: kept.launchComplete - plan.metrics.launchComplete,
            blocked: plan.metrics.mainThreadBlocked - kept.mainThreadBlocked,
            inputDelay: kept.maxInputDelay - plan.metrics.maxInputDelay,
            inputLatency: kept.inputLatencyMax - plan.metrics.inputLatencyMax, margin: plan.margin - kept.margin)
        // The switch may win only below the objective (the frame before vsync, full display, launch):
        // say how to keep the app's strategy then.
        let same =
            against.objective == 0
            ? "; the same \(objective.label): '--strategy \(from.rawValue)' keeps \(from.rawValue)" : ""
        out.append(
            "keeping \(from.rawValue), the best plan found: \(objective.label) \(formatMillis(objective.value(kept))) ms with \(AdviseReport.count(keeping.changeCount, "change")); this plan against it: \(AdviseReport.gainText(against.objective))\(AdviseReport.secondary(against, plan: plan))\(same)\(measured)"
        )
        return out
    }
}
