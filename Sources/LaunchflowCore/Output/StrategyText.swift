extension Strategy {
    /// One line for `--help` and reports: what the strategy's app delegate does.
    public var summary: String {
        switch self {
        case .serial: "everything in didFinishLaunching, on the main thread, in dependency order"
        case .priority: "priority tiers: tier 0 in didFinishLaunching, each later tier when the one before is done"
        case .dag: "dependency graph (operation queue): a task starts when its dependencies are done"
        case .anchored: "dag whose didFinishLaunching first runs everything the first frame needs"
        }
    }
}
