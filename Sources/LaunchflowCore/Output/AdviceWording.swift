/// The wording of `advise`'s report, for other pages that show a plan
/// (`report --advise`): the same sentences `advise` prints, from one place.
extension AdviseReport {
    /// The metrics of the side-by-side table, in its order.
    public static var tableMetrics: [Metric] { metrics }

    /// "Modular app delegate — advice under dag, objective time to first frame; may change …".
    public static func title(_ plan: AdvicePlan) -> String { header(plan) }

    /// "first-frame bound 174.993 ms: the plan reaches it (as written: 33.332 ms above)".
    public static func boundLine(_ plan: AdvicePlan) -> String { boundText(plan) }

    /// "constraints: … — met", or nil without constraints.
    public static func constraintsLine(_ plan: AdvicePlan) -> String? { constraintsText(plan) }

    /// The change list: one line per group (or rank change), with its details.
    public static func changeList(_ plan: AdvicePlan) -> [(line: String, details: [String])] { changeLines(plan) }

    /// A gain as the report shows it: `−17 ms` for a gain of 17 ms, `±0 ms`.
    public static func gainText(_ gain: Micros) -> String { effect(gain) }

    /// What moves when the objective does not (`(first frame before vsync −1.2 ms, …)`), or "".
    public static func secondaryText(_ change: AdviseChange) -> String { secondary(change) }
}
