import Foundation
import LaunchflowRender
import Testing

@testable import LaunchflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every rendering test, run one at a time: Graphviz calls are serialised
/// anyway, and the memory tests read the whole process's VmRSS, which other
/// renders running at the same time would disturb.
@Suite(.serialized) struct RenderTests {}

/// A parsed SVG with the lookups the tests need. Parsing fails the test if
/// the bytes are not well-formed XML.
struct SVG {
    let root: XMLElement
    /// Every element, in document order.
    let elements: [XMLElement]

    init(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try XMLDocument(data: Data(bytes), options: [])
        root = try #require(document.rootElement(), sourceLocation: sourceLocation)
        elements = SVG.descendants(of: root)
    }

    static func descendants(of element: XMLElement) -> [XMLElement] {
        var result = [element]
        for child in element.children ?? [] {
            if let child = child as? XMLElement { result += descendants(of: child) }
        }
        return result
    }

    /// The elements whose `id` is exactly `id`.
    func elements(withID id: String) -> [XMLElement] { elements.filter { SVG.attribute($0, "id") == id } }

    func element(withID id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> XMLElement {
        let found = elements(withID: id)
        try #require(
            found.count == 1, "expected one element with id \(id.debugDescription), found \(found.count)",
            sourceLocation: sourceLocation)
        return found[0]
    }

    /// Graphviz's `<g class="node|edge|cluster …">` groups whose class list holds `token`.
    func groups(withClass token: String) -> [XMLElement] {
        elements.filter { SVG.classes($0).contains(token) }
    }

    /// An attribute by its qualified name (`id`, `class`, `xlink:title`).
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    static func classes(_ element: XMLElement) -> [String] {
        (attribute(element, "class") ?? "").split(separator: " ").map(String.init)
    }

    /// The bounding box of the first polygon inside `element` (SVG user units;
    /// Graphviz's y is negated, so `minY` is the top).
    static func box(_ element: XMLElement) throws -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let polygon = try #require(descendants(of: element).first { $0.localName == "polygon" })
        let points = try #require(attribute(polygon, "points")).split(separator: " ").map { pair in
            let xy = pair.split(separator: ",").map { Double($0)! }
            return (x: xy[0], y: xy[1])
        }
        return (points.map(\.x).min()!, points.map(\.x).max()!, points.map(\.y).min()!, points.map(\.y).max()!)
    }

    /// The text of every `<text>` inside `element`, joined by "|".
    static func text(_ element: XMLElement) -> String {
        descendants(of: element).filter { $0.localName == "text" }.map { $0.stringValue ?? "" }.joined(separator: "|")
    }

    /// The tooltip Graphviz attached (`xlink:title` of the link inside `element`).
    static func tooltip(_ element: XMLElement) -> String? {
        descendants(of: element).first { $0.localName == "a" }.flatMap { attribute($0, "xlink:title") }
    }

    /// Ids that occur more than once.
    var duplicateIDs: [String] {
        var seen = Set<String>()
        var duplicates = Set<String>()
        for element in elements {
            if let id = SVG.attribute(element, "id"), !seen.insert(id).inserted { duplicates.insert(id) }
        }
        return duplicates.sorted()
    }
}

/// Scenarios built in code for the tests.
enum Scenarios {
    /// A 13-task launch with three tiers, main-thread tasks, a first-frame
    /// task, commit and render time, and dependencies that `priority` violates.
    static let example: Scenario = {
        func task(
            _ id: String, _ ms: Int, main: Bool = false, tier: Int = 0, deps: [Int] = [], first: Bool = false
        ) -> LaunchTask {
            LaunchTask(
                id: id, cost: ms * 1000, mainThreadOnly: main, priority: tier, dependsOn: deps, firstFrame: first)
        }
        return try! Scenario(
            name: "Test app", device: Device(cores: 4, refreshRate: 60, commitCost: 2000, renderTime: 4000),
            preMain: [PreMainPhase(name: "dyld", cost: 45_000), PreMainPhase(name: "+load", cost: 8_000)],
            tasks: [
                task("crash-reporter", 40),  // 0
                task("logging", 6),  // 1
                task("config", 14, deps: [1]),  // 2
                task("keychain", 10),  // 3
                task("network", 22, tier: 1, deps: [2]),  // 4
                task("database", 30, tier: 1, deps: [3]),  // 5
                task("session", 12, deps: [3, 4]),  // 6
                task("window", 6, main: true),  // 7
                task("root-vc", 24, main: true, deps: [6, 7], first: true),  // 8
                task("feed-cache", 18, tier: 1, deps: [5]),  // 9
                task("feed-vc", 16, main: true, tier: 1, deps: [8, 9]),  // 10
                task("analytics", 15, tier: 2, deps: [4]),  // 11
                task("prefetch", 0, tier: 2, deps: [9]),  // 12: zero cost
            ])
    }()

    /// Ids that collide with Graphviz's own ids, our `lf-` ids, tooltip link
    /// ids (`a_…`), or need escaping in DOT, XML or Graphviz's label syntax.
    static let awkwardIDs = [
        "x", "a_x", "lf-lane-main", "a_lf-commit-0", "graph0", "node1", "clust1", "edge1", "a_node1",
        "&amp;", "&foo;", "<b>\"q\"</b>", "it's", "back\\slash", "\\N", "\\G\\n", "two\nlines", "tab\there",
        "sp ace", "uni ☃ é", "--", "]]>", "%1", "lf1-x",
    ]

    /// A scenario whose tasks have the ``awkwardIDs``, chained in pairs, on 3 cores.
    static let awkward: Scenario = awkward(description: "")

    /// ``awkward`` with a `description` of its own.
    static func awkward(description: String) -> Scenario {
        let tasks = awkwardIDs.enumerated().map { i, id in
            LaunchTask(
                id: id, cost: 1000 + 700 * i, mainThreadOnly: i % 5 == 2, priority: i % 3,
                dependsOn: i % 2 == 1 ? [i - 1] : [], firstFrame: i == 2)
        }
        var scenario = try! Scenario(name: "Awkward <&> \"ids\" \\N", device: Device(cores: 3), tasks: tasks)
        // Set after validation: a file cannot hold control characters, the pictures must cope all the same.
        scenario.description = description
        return scenario
    }
}
