/// (§3.13) Phones launchflow knows by name: their clusters of cores and
/// display refresh rates, for `compare --device NAME` and a scenario's
/// `device.preset`. Core counts and clocks are public; the speeds of the
/// slower clusters are computed from public figures or estimated (each
/// row's `basis` says which; docs/scenarios.md gives the sources).
public enum DevicePreset: String, CaseIterable, Sendable {
    case iphone16 = "iphone-16"
    case iphone16Pro = "iphone-16-pro"
    case iphone17Pro = "iphone-17-pro"
    case pixel6 = "pixel-6"
    case androidEntry = "android-entry"

    /// The clusters, fastest first.
    public var clusters: [CoreCluster] {
        switch self {
        case .iphone16, .iphone16Pro, .iphone17Pro:
            // 2 performance + 4 efficiency cores; E ≈ 0.5 of P at top clocks (an estimate).
            [CoreCluster(name: "P", count: 2, speed: 1), CoreCluster(name: "E", count: 4, speed: 0.5)]
        case .pixel6:
            // Linux's capacities for gs101: X1 1024, A76 498, A55 161 (computed).
            [
                CoreCluster(name: "X1", count: 2, speed: 1), CoreCluster(name: "A76", count: 2, speed: 0.486),
                CoreCluster(name: "A55", count: 4, speed: 0.157),
            ]
        case .androidEntry:
            // Snapdragon 662: 4 A73 at 2.0 GHz (1638 DMIPS/MHz), 4 A53 at 1.8 GHz (1024): 0.563 (computed).
            [CoreCluster(name: "A73", count: 4, speed: 1), CoreCluster(name: "A53", count: 4, speed: 0.563)]
        }
    }

    /// The display's refresh rate, Hz (ProMotion and Android's high rates at their top).
    public var refreshRate: Double {
        switch self {
        case .iphone16: 60
        case .iphone16Pro, .iphone17Pro: 120
        case .pixel6: 90
        case .androidEntry: 60
        }
    }

    /// One line: the phone and what its figures rest on.
    public var basis: String {
        switch self {
        case .iphone16:
            "iPhone 16 (A18): 2 P + 4 E cores, 60 Hz; E at 0.5 of P is an estimate (Apple's M2 E/P capacity at top clocks, 0.51)"
        case .iphone16Pro:
            "iPhone 16 Pro (A18 Pro): 2 P + 4 E cores, ProMotion 120 Hz; E at 0.5 of P is an estimate"
        case .iphone17Pro:
            "iPhone 17 Pro (A19 Pro): 2 P + 4 E cores, ProMotion 120 Hz; E at 0.5 of P is an estimate (its E cores are reported faster than the A18 Pro's)"
        case .pixel6:
            "Pixel 6 (Tensor G1): 2 X1 + 2 A76 + 4 A55, 90 Hz; speeds from Linux's CPU capacities for gs101 (1024 / 498 / 161)"
        case .androidEntry:
            "an entry-level Android phone (Snapdragon 662: Moto G30, Redmi 9T): 4 A73 + 4 A53, 60 Hz; A53 speed from Linux's capacity-dmips-mhz (1638 / 1024) and the clocks (2.0 / 1.8 GHz)"
        }
    }

    /// `device` on this phone: its clusters and refresh rate, and as many
    /// threads as cores (the main thread and a worker per other core); no
    /// `cpus` (the clusters say how many there are).
    public func applied(to device: Device) -> Device {
        var device = device
        device.clusters = clusters
        device.refreshRate = refreshRate
        device.cores = max(2, clusters.reduce(0) { $0 + $1.count })
        device.cpus = nil
        return device
    }
}
