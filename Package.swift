// swift-tools-version: 6.0
import PackageDescription

// Layers, each in its own folder (see README "Code map"); each depends only on those above it:
//   LaunchflowModel   the scenario (keys, decoder, validation, writer) and the strategies' rules (plans,
//                     policies, ranking): what the simulator and the runtime share — Foundation only
//   LaunchflowRuntime the launch scheduler an app links: the rules on the real run loop (Model, CoreFoundation,
//                     Dispatch — never the simulator; nothing newer than the platforms below)
//   LaunchflowCore    the simulator: engine, metrics, advise, check, output — no Graphviz, no zlib
//   CZlib             zlib, for gzip'd Perfetto traces (only LaunchflowImport/Gzip.swift imports it)
//   LaunchflowImport  traces and measurements in: import, calibrate (Core + CZlib)
//   LaunchflowRender  pictures, the report; the only code that imports CGraphviz
//   LaunchflowCLI     argument parsing and the commands
//   launchflow        the executable: a thin main over LaunchflowCLI
let package = Package(
    name: "launchflow",
    // The runtime's floor: the apps that link it support iOS 16 (nothing in LaunchflowRuntime's closure is
    // newer: Tools/deployment-floor/check.py, run by make test).
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .executable(name: "launchflow", targets: ["launchflow"]),
        .library(name: "LaunchflowRuntime", targets: ["LaunchflowRuntime"]),
        .library(name: "LaunchflowCore", targets: ["LaunchflowCore"]),
        .library(name: "LaunchflowImport", targets: ["LaunchflowImport"]),
    ],
    targets: [
        .target(name: "LaunchflowModel"),
        .target(name: "LaunchflowRuntime", dependencies: ["LaunchflowModel"]),
        .target(name: "LaunchflowCore", dependencies: ["LaunchflowModel"]),
        .target(name: "LaunchflowImport", dependencies: ["LaunchflowCore", "CZlib"]),
        // zlib comes with macOS's SDK; Graphviz from Homebrew, found through pkg-config (make deps).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev", "pkg-config"]), .brew(["graphviz", "pkg-config"])]
        ),
        .target(
            name: "LaunchflowRender", dependencies: ["LaunchflowCore", "LaunchflowImport", "CGraphviz"],
            // The report's script and style sheet, inlined into each page (Report/ReportResources.swift).
            resources: [.copy("Report/report.js"), .copy("Report/report.css")]),
        .target(name: "LaunchflowCLI", dependencies: ["LaunchflowCore", "LaunchflowImport", "LaunchflowRender"]),
        // The executable installs the process's signal handlers (Sources/launchflow/SignalCleanup.swift).
        .executableTarget(name: "launchflow", dependencies: ["LaunchflowCLI", "LaunchflowCore"]),
        // The child process `launchflow replay` runs: a scenario on the runtime, with spinning bodies. It reads the
        // scenario file itself (ScenarioLoader), which an app does not: LaunchflowRuntime does not re-export the model.
        .executableTarget(name: "launchflow-replay-host", dependencies: ["LaunchflowRuntime", "LaunchflowModel"]),
        .executableTarget(
            name: "launchflow-bench", dependencies: ["LaunchflowCore", "LaunchflowRender", "LaunchflowRuntime"]),
        // The runtime's concurrency and lifecycle cases, each on a real main run loop in a child process of
        // the runtime's tests (Tests/LaunchflowRuntimeTests/LifecycleTests.swift), through its test hooks.
        .executableTarget(
            name: "launchflow-runtime-probe", dependencies: ["LaunchflowRuntime", "LaunchflowModel"],
            path: "Tests/RuntimeProbe"),
        // Tests in three targets — the model and the library (unit), the command line, and the report in a
        // browser (headless Chromium) — sharing Tests/LaunchflowTests/Support (a symbolic link in the other two)
        // and reading the fixtures in place.
        .testTarget(
            name: "LaunchflowTests",
            dependencies: ["LaunchflowCore", "LaunchflowImport", "LaunchflowCLI", "launchflow"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LaunchflowCLITests",
            dependencies: ["LaunchflowCore", "LaunchflowImport", "LaunchflowCLI", "LaunchflowRender", "launchflow"]
        ),
        .testTarget(
            name: "LaunchflowBrowserTests",
            dependencies: ["LaunchflowCore", "LaunchflowImport", "LaunchflowCLI", "LaunchflowRender", "launchflow"]
        ),
        // The runtime: resolution and its errors in process; real runs in a child process each
        // (launchflow-replay-host: a fresh main run loop, the test runner's own left alone). It shares
        // Tests/LaunchflowTests/Support too (a symbolic link).
        .testTarget(
            name: "LaunchflowRuntimeTests",
            dependencies: [
                "LaunchflowRuntime", "LaunchflowCore", "LaunchflowCLI", "launchflow-replay-host",
                "launchflow-runtime-probe", "launchflow",
            ]),
        .testTarget(
            name: "LaunchflowRenderTests", dependencies: ["LaunchflowCore", "LaunchflowRender", "launchflow-bench"]),
    ]
)
