/// A picture described as a Graphviz graph, in plain Swift: nodes, edges,
/// clusters and their attributes, in a fixed order.
///
/// The chart builders (``DAGChart``, ``GanttChart``, ``ComparisonChart``)
/// produce one; ``Graphviz/svg(_:)`` lays it out and renders it. Nothing here
/// touches C, so the builders are unit-testable without Graphviz.
///
/// Attribute values are stored exactly as Graphviz must receive them:
/// builders escape text with ``GraphvizText`` before storing it.
///
/// Example:
/// ```swift
/// var graph = GraphDescription(name: "demo", layout: .dot)
/// graph.nodes.append(GraphDescription.Node(name: "a", ["label": "a", "shape": "box"]))
/// graph.nodes.append(GraphDescription.Node(name: "b", ["label": "b"]))
/// graph.edges.append(GraphDescription.Edge(from: "a", to: "b", ["id": "lf-a-b"]))
/// let svg = try Graphviz.svg(graph)
/// ```
public struct GraphDescription: Sendable, Equatable {
    /// A Graphviz layout engine.
    public struct Layout: RawRepresentable, Sendable, Equatable, ExpressibleByStringLiteral {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// Hierarchical layout, for the dependency graph.
        public static let dot: Layout = "dot"
        /// Nodes stay at their `pos` (points); edges are routed.
        public static let nop: Layout = "nop"
        /// Nodes stay at their `pos` (points); edges keep their `pos` too.
        public static let nop2: Layout = "nop2"
    }

    /// One attribute value: plain text (already escaped) or an HTML-like label.
    public struct Value: Sendable, Equatable, ExpressibleByStringLiteral {
        public var text: String
        /// An HTML-like label (`label=<…>` in DOT); `text` is the markup without the outer `<>`.
        public var isHTML: Bool

        public init(_ text: String, isHTML: Bool = false) {
            self.text = text
            self.isHTML = isHTML
        }
        public init(stringLiteral value: String) { self.init(value) }

        /// An HTML-like label value.
        public static func html(_ markup: String) -> Value { Value(markup, isHTML: true) }
    }

    /// Attributes in the order they were first set; setting a key again replaces its value in place.
    public struct Attributes: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
        public private(set) var pairs: [(name: String, value: Value)] = []

        public init() {}
        /// Dictionary literals keep their written order.
        public init(dictionaryLiteral elements: (String, Value)...) {
            for (name, value) in elements { self[name] = value }
        }

        public subscript(name: String) -> Value? {
            get { pairs.first { $0.name == name }?.value }
            set {
                if let index = pairs.firstIndex(where: { $0.name == name }) {
                    if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
                } else if let newValue {
                    pairs.append((name, newValue))
                }
            }
        }

        public var isEmpty: Bool { pairs.isEmpty }
        public func makeIterator() -> IndexingIterator<[(name: String, value: Value)]> { pairs.makeIterator() }

        public static func == (lhs: Attributes, rhs: Attributes) -> Bool {
            lhs.pairs.count == rhs.pairs.count
                && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        }
    }

    public struct Node: Sendable, Equatable {
        /// The Graphviz node name: unique in the graph; shown as the SVG `<title>`.
        public var name: String
        public var attributes: Attributes

        public init(name: String, _ attributes: Attributes = [:]) {
            self.name = name
            self.attributes = attributes
        }
    }

    public struct Edge: Sendable, Equatable {
        /// Node names.
        public var tail: String
        public var head: String
        public var attributes: Attributes

        public init(from tail: String, to head: String, _ attributes: Attributes = [:]) {
            self.tail = tail
            self.head = head
            self.attributes = attributes
        }
    }

    /// A subgraph named `cluster_…`, drawn as a box around its nodes (`dot` only).
    public struct Cluster: Sendable, Equatable {
        /// Unique among clusters; Graphviz sees `cluster_<name>`.
        public var name: String
        public var attributes: Attributes
        /// Names of the nodes inside.
        public var nodes: [String]

        public init(name: String, _ attributes: Attributes = [:], nodes: [String] = []) {
            self.name = name
            self.attributes = attributes
            self.nodes = nodes
        }
    }

    public var name: String
    public var layout: Layout
    /// Attributes of the root graph only (never inherited by clusters).
    public var graphAttributes: Attributes
    /// Defaults for every node, and for every edge.
    public var nodeDefaults: Attributes
    public var edgeDefaults: Attributes
    /// In drawing order: later nodes are painted over earlier ones.
    public var nodes: [Node]
    public var edges: [Edge]
    public var clusters: [Cluster]
    /// Groups of node names that `dot` puts on one rank (`rank=same` subgraphs).
    public var sameRank: [[String]] = []

    public init(
        name: String, layout: Layout, graphAttributes: Attributes = [:], nodeDefaults: Attributes = [:],
        edgeDefaults: Attributes = [:], nodes: [Node] = [], edges: [Edge] = [], clusters: [Cluster] = []
    ) {
        self.name = name
        self.layout = layout
        self.graphAttributes = graphAttributes
        self.nodeDefaults = nodeDefaults
        self.edgeDefaults = edgeDefaults
        self.nodes = nodes
        self.edges = edges
        self.clusters = clusters
    }

    /// The problems that would make Graphviz draw something else than described:
    /// duplicate node or cluster names, edges or clusters naming unknown nodes,
    /// a node in two clusters. Empty when the description is sound.
    ///
    /// - Complexity: O(n + e) for n nodes and e edges.
    public func problems() -> [String] {
        var problems: [String] = []
        var names = Set<String>()
        for node in nodes where !names.insert(node.name).inserted {
            problems.append("node '\(node.name)' is described twice")
        }
        for edge in edges {
            for end in [edge.tail, edge.head] where !names.contains(end) {
                problems.append("edge \(edge.tail) -> \(edge.head) names an unknown node '\(end)'")
            }
        }
        var clusterNames = Set<String>()
        var clustered = Set<String>()
        for cluster in clusters {
            if !clusterNames.insert(cluster.name).inserted {
                problems.append("cluster '\(cluster.name)' is described twice")
            }
            for node in cluster.nodes {
                if !names.contains(node) {
                    problems.append("cluster '\(cluster.name)' names an unknown node '\(node)'")
                }
                if !clustered.insert(node).inserted { problems.append("node '\(node)' is in two clusters") }
            }
        }
        for group in sameRank {
            for node in group where !names.contains(node) {
                problems.append("rank group names an unknown node '\(node)'")
            }
        }
        return problems
    }

    /// The description as DOT text (for debugging and for `dot` users); values
    /// are quoted, HTML-like labels written as `<…>`.
    public var dotSource: String {
        var out = "digraph \(quoted(name)) {\n"
        if !graphAttributes.isEmpty { out += "  graph \(list(graphAttributes))\n" }
        if !nodeDefaults.isEmpty { out += "  node \(list(nodeDefaults))\n" }
        if !edgeDefaults.isEmpty { out += "  edge \(list(edgeDefaults))\n" }
        let clusterOf = Dictionary(
            clusters.enumerated().flatMap { k, cluster in cluster.nodes.map { ($0, k) } },
            uniquingKeysWith: { a, _ in a })
        for (k, cluster) in clusters.enumerated() {
            out += "  subgraph \(quoted("cluster_" + cluster.name)) {\n"
            if !cluster.attributes.isEmpty { out += "    graph \(list(cluster.attributes))\n" }
            for node in nodes where clusterOf[node.name] == k {
                out += "    \(quoted(node.name)) \(list(node.attributes))\n"
            }
            out += "  }\n"
        }
        for node in nodes where clusterOf[node.name] == nil {
            out += "  \(quoted(node.name)) \(list(node.attributes))\n"
        }
        for group in sameRank { out += "  { rank=same; " + group.map(quoted).joined(separator: "; ") + " }\n" }
        for edge in edges { out += "  \(quoted(edge.tail)) -> \(quoted(edge.head)) \(list(edge.attributes))\n" }
        return out + "}\n"
    }

    private func list(_ attributes: Attributes) -> String {
        "["
            + attributes.map { "\($0.name)=\($0.value.isHTML ? "<\($0.value.text)>" : quoted($0.value.text))" }.joined(
                separator: ", ") + "]"
    }

    /// A DOT double-quoted string: `"` is escaped; backslashes pass through
    /// unchanged, as DOT does (they are already escaped for Graphviz).
    private func quoted(_ text: String) -> String {
        var out = "\""
        var backslash = false
        for c in text {
            if c == "\"" && !backslash { out += "\\" }
            out.append(c)
            backslash = c == "\\" && !backslash
        }
        if backslash { out += "\\" }
        return out + "\""
    }
}
