// swift-tools-version: 6.0
import PackageDescription

// Layers, each in its own folder (see README "Code map"):
//   LaunchflowCore    model + validation, engine, strategies, metrics, output, import — no Graphviz
//   CZlib             zlib, for gzip'd Perfetto traces (only Import/Gzip.swift imports it)
//   LaunchflowRender  pictures; the only code that imports CGraphviz
//   LaunchflowCLI     argument parsing and the commands
//   launchflow        the executable: a thin main over LaunchflowCLI
let package = Package(
    name: "launchflow",
    products: [
        .executable(name: "launchflow", targets: ["launchflow"]),
        .library(name: "LaunchflowCore", targets: ["LaunchflowCore"]),
    ],
    targets: [
        .target(name: "LaunchflowCore", dependencies: ["CZlib"]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev", "pkg-config"])]
        ),
        .target(
            name: "LaunchflowRender", dependencies: ["LaunchflowCore", "CGraphviz"],
            // The report's script and style sheet, inlined into each page (Report/ReportResources.swift).
            resources: [.copy("Report/report.js"), .copy("Report/report.css")]),
        .target(name: "LaunchflowCLI", dependencies: ["LaunchflowCore", "LaunchflowRender"]),
        .executableTarget(name: "launchflow", dependencies: ["LaunchflowCLI"]),
        .executableTarget(name: "launchflow-bench", dependencies: ["LaunchflowCore", "LaunchflowRender"]),
        .testTarget(
            name: "LaunchflowTests",
            dependencies: ["LaunchflowCore", "LaunchflowCLI", "launchflow"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "LaunchflowRenderTests", dependencies: ["LaunchflowCore", "LaunchflowRender", "launchflow-bench"]),
    ]
)
