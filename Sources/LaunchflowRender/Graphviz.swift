import CGraphviz
import LaunchflowCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A picture could not be made; ``description`` says why and, when Graphviz
/// itself looks broken, which package to install.
public struct RenderError: Error, Sendable, CustomStringConvertible {
    public enum Stage: String, Sendable {
        /// The description was inconsistent (a bug in a chart builder).
        case description
        /// `gvContext()` failed.
        case context
        case layout
        case render
    }

    public var stage: Stage
    /// The layout engine asked for (`dot`, `nop`, …).
    public var engine: String
    /// Graphviz's own messages, one per line, e.g. `Error: Layout type: "x" not recognized. …`.
    public var messages: [String]

    /// The package that provides libgvc and its plugins, as the error names it.
    public static let package = "libgraphviz-dev"

    public var description: String {
        let detail = messages.isEmpty ? "" : ": " + messages.joined(separator: "; ")
        let what: String
        switch stage {
        case .description: return "cannot draw the picture\(detail)"
        case .context: what = "Graphviz could not start"
        case .layout: what = "Graphviz could not lay out the picture with the '\(engine)' engine"
        case .render: what = "Graphviz could not write the picture as SVG"
        }
        guard looksLikeBrokenInstallation else { return what + detail }
        return "\(what)\(detail). Graphviz or its plugins are missing or broken (Debian lists them in"
            + " /usr/lib/<arch>/graphviz/config6a); install it with `apt-get install \(Self.package)`"
            + " (or repair it: `apt-get install --reinstall \(Self.package) libgvc6`)."
    }

    /// A missing plugin (layout engine, SVG renderer) or context, rather than
    /// a picture Graphviz rejects.
    public var looksLikeBrokenInstallation: Bool {
        stage == .context || messages.isEmpty || messages == ["(Graphviz gave no message)"]
            || messages.contains { $0.contains("not recognized") || $0.contains("Could not load") }
    }
}

/// The one door to Graphviz: turns a ``GraphDescription`` into SVG bytes.
///
/// Graphviz is not thread-safe and its context must not be recreated (the
/// pango plugin crashes on a second context), so the process keeps one
/// `GVC_t`, made on first use, and every Graphviz call happens while holding
/// one lock. Graphviz's warnings and errors are captured instead of going to
/// stderr; an error during layout or render becomes a ``RenderError``.
public enum Graphviz {
    /// Lays out and renders `graph` as SVG (UTF-8 bytes).
    ///
    /// Safe to call from any thread; calls are serialised. Every allocation
    /// (graph, layout, render buffer) is freed before returning.
    ///
    /// - Throws: ``RenderError`` with Graphviz's own message.
    /// - Complexity: that of the layout engine (`dot` is super-linear; `nop` linear).
    public static func svg(_ graph: GraphDescription) throws(RenderError) -> [UInt8] {
        try svg(graph, adjustingLayout: nil)
    }

    /// Lays out `graph` with its engine, lets `adjust` move what the engine
    /// placed (nodes, cluster boxes and labels, edge splines: ``LayoutGeometry``),
    /// then draws it exactly there (`nop2`, `notranslate`) as SVG.
    ///
    /// - Complexity: that of the layout engine, plus O(n + e) for the round trip.
    public static func svg(
        _ graph: GraphDescription, adjustingLayout adjust: ((inout LayoutGeometry) -> Void)?
    ) throws(RenderError) -> [UInt8] {
        let problems = graph.problems()
        guard problems.isEmpty else {
            throw RenderError(stage: .description, engine: graph.layout.rawValue, messages: problems)
        }
        return try state.withLock { (state: inout State) throws(RenderError) -> [UInt8] in
            let context = try state.context(engine: graph.layout.rawValue)
            return SVGHoverText.rewrite(try render(graph, with: context, adjust: adjust))
        }
    }

    /// The Graphviz version the library reports, e.g. "2.43.0".
    public static var version: String {
        state.withLock { state in
            guard let context = try? state.context(engine: "") else { return "unknown" }
            return gvcVersion(context).map { String(cString: $0) } ?? "unknown"
        }
    }

    // MARK: - The shared context

    /// What the lock protects: the process's one Graphviz context.
    struct State {
        var gvc: OpaquePointer?

        /// The context, made on first use. It is never freed: Graphviz cannot
        /// make a second one safely, and the process needs it until it exits.
        mutating func context(engine: String) throws(RenderError) -> OpaquePointer {
            if let gvc { return gvc }
            _ = agseterrf(collectMessage)
            _ = agreseterrors()
            guard let made = gvContext() else {
                throw RenderError(stage: .context, engine: engine, messages: takeMessages())
            }
            _ = takeMessages()
            gvc = made
            return made
        }
    }

    private static let state = LockedValue(State(gvc: nil))

    /// Graphviz's messages since the last ``takeMessages()``. Only touched
    /// while ``state`` is locked; a lock of its own keeps the C callback safe.
    private static let messages = LockedValue("")

    /// The message lines collected so far, emptied.
    private static func takeMessages() -> [String] {
        messages.withLock { text in
            defer { text = "" }
            return text.split(separator: "\n").map { String($0).trimmed }.filter { !$0.isEmpty }
        }
    }

    /// Installed with `agseterrf`: Graphviz hands over its messages in pieces
    /// ("Error", ": ", the text).
    private static let collectMessage: @convention(c) (UnsafeMutablePointer<CChar>?) -> Int32 = { piece in
        guard let piece else { return 0 }
        let text = String(cString: piece)
        Graphviz.messages.withLock { $0 += text }
        return 0
    }

    // MARK: - One render

    private static func render(
        _ graph: GraphDescription, with gvc: OpaquePointer, adjust: ((inout LayoutGeometry) -> Void)?
    ) throws(RenderError) -> [UInt8] {
        _ = takeMessages()
        _ = agreseterrors()
        let engine = graph.layout.rawValue
        let discipline = Names.discipline()
        defer { Names.release(discipline) }
        guard let g = mutableCString(graph.name, { agopen($0, launchflow_agdirected(), discipline) }) else {
            throw RenderError(stage: .description, engine: engine, messages: ["agopen failed"] + takeMessages())
        }
        defer { agclose(g) }
        let objects = build(graph, into: g)
        if agerrors() >= Int32(AGERR.rawValue) {
            throw RenderError(stage: .description, engine: engine, messages: errorLines())
        }

        defer { gvFreeLayout(gvc, g) }  // safe after a failed layout too
        let laidOut = gvLayout(gvc, g, engine)
        if laidOut != 0 || agerrors() >= Int32(AGERR.rawValue) {
            throw RenderError(stage: .layout, engine: engine, messages: errorLines())
        }
        if let adjust {
            try relayout(g, objects, with: gvc, engine: engine, adjust)
        }

        var bytes: [UInt8]? = nil
        let rendered = renderData { data, length in
            let rc = gvRenderData(gvc, g, "svg", data, length)
            if rc == 0, let start = data.pointee {
                bytes = Array(UnsafeRawBufferPointer(start: start, count: Int(length.pointee)))
            }
            if let start = data.pointee { gvFreeRenderData(start) }
            return rc
        }
        guard rendered == 0, let bytes, agerrors() < Int32(AGERR.rawValue) else {
            throw RenderError(stage: .render, engine: engine, messages: errorLines())
        }
        return bytes
    }

    /// The collected messages that are errors (falling back to all of them).
    private static func errorLines() -> [String] {
        let lines = takeMessages()
        let errors = lines.filter { $0.hasPrefix("Error") }
        return errors.isEmpty ? (lines.isEmpty ? ["(Graphviz gave no message)"] : lines) : errors
    }

    /// Calls `gvRenderData`, whose length is `unsigned int *` in Graphviz 2.42
    /// and `size_t *` in later versions.
    private static func renderData<Length: BinaryInteger>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Length>) -> Int32
    ) -> Int32 {
        var data: UnsafeMutablePointer<CChar>? = nil
        var length: Length = 0
        return body(&data, &length)
    }

    // MARK: - Description → cgraph

    private typealias Graph = UnsafeMutablePointer<Agraph_t>

    /// Creates clusters, nodes and edges, then declares and sets attributes.
    /// Root graph attributes are set last: Graphviz copies a root graph's
    /// values into subgraphs made after them.
    /// The cgraph objects made for a description, in its order.
    private struct Objects {
        var nodes: [UnsafeMutableRawPointer]
        var edges: [UnsafeMutableRawPointer]
        var clusters: [UnsafeMutableRawPointer]
    }

    /// Reads the positions `engine` gave (`attach_attrs` sets them as
    /// attributes, as writing DOT does), lets `adjust` change them,
    /// writes them back and lays the graph out again with `nop2`, which keeps
    /// every node, cluster and edge where its attributes say.
    private static func relayout(
        _ g: Graph, _ objects: Objects, with gvc: OpaquePointer, engine: String,
        _ adjust: (inout LayoutGeometry) -> Void
    ) throws(RenderError) {
        attach_attrs(g)  // what writing DOT does first: pos, bb, lp, width, height as attributes
        guard agerrors() < Int32(AGERR.rawValue) else {
            throw RenderError(stage: .layout, engine: engine, messages: errorLines())
        }
        var symbols: [String: UnsafeMutablePointer<Agsym_t>?] = [:]
        func get(_ object: UnsafeMutableRawPointer, _ kind: Int32, _ name: String) -> String {
            let key = "\(kind) \(name)"
            if symbols[key] == nil { symbols[key] = mutableCString(name) { agattr(g, kind, $0, nil) } }
            guard let symbol = symbols[key]!, let value = agxget(object, symbol) else { return "" }
            return String(cString: value)
        }
        let (nodeKind, edgeKind, graphKind) = (Int32(AGNODE), Int32(AGEDGE), Int32(AGRAPH))
        let root = UnsafeMutableRawPointer(g)
        var geometry = LayoutGeometry(
            nodes: objects.nodes.map { node in
                LayoutGeometry.Node(
                    center: LayoutGeometry.point(get(node, nodeKind, "pos")) ?? LayoutGeometry.Point(0, 0),
                    width: (Double(get(node, nodeKind, "width")) ?? 0) * 72,
                    height: (Double(get(node, nodeKind, "height")) ?? 0) * 72)
            },
            edges: objects.edges.map { LayoutGeometry.splines(get($0, edgeKind, "pos")) },
            clusters: objects.clusters.map { cluster in
                LayoutGeometry.Cluster(
                    box: LayoutGeometry.box(get(cluster, graphKind, "bb"))
                        ?? LayoutGeometry.Box(minX: 0, minY: 0, maxX: 0, maxY: 0),
                    label: LayoutGeometry.point(get(cluster, graphKind, "lp")))
            },
            bounds: LayoutGeometry.box(get(root, graphKind, "bb"))
                ?? LayoutGeometry.Box(minX: 0, minY: 0, maxX: 0, maxY: 0),
            label: LayoutGeometry.point(get(root, graphKind, "lp")))
        let before = geometry
        adjust(&geometry)
        guard geometry != before else { return }
        func put(_ object: UnsafeMutableRawPointer, _ name: String, _ value: String) {
            _ = mutableCString(name) { cName in
                mutableCString(value) { cValue in mutableCString("") { agsafeset(object, cName, cValue, $0) } }
            }
        }
        for (object, node) in zip(objects.nodes, geometry.nodes) {
            put(object, "pos", LayoutGeometry.text(node.center))
        }
        for (object, splines) in zip(objects.edges, geometry.edges) { put(object, "pos", LayoutGeometry.text(splines)) }
        for (object, cluster) in zip(objects.clusters, geometry.clusters) {
            put(object, "bb", LayoutGeometry.text(cluster.box))
            if let label = cluster.label { put(object, "lp", LayoutGeometry.text(label)) }
        }
        put(root, "bb", LayoutGeometry.text(geometry.bounds))
        if let label = geometry.label { put(root, "lp", LayoutGeometry.text(label)) }
        put(root, "notranslate", "true")
        gvFreeLayout(gvc, g)
        if gvLayout(gvc, g, "nop2") != 0 || agerrors() >= Int32(AGERR.rawValue) {
            throw RenderError(stage: .layout, engine: "nop2", messages: errorLines())
        }
    }

    private static func build(_ graph: GraphDescription, into g: Graph) -> Objects {
        var nodes: [String: UnsafeMutablePointer<Agnode_t>] = [:]
        nodes.reserveCapacity(graph.nodes.count)
        var nodeObjects: [UnsafeMutableRawPointer] = []
        nodeObjects.reserveCapacity(graph.nodes.count)
        for node in graph.nodes {
            let n = mutableCString(node.name) { agnode(g, $0, 1) }!
            nodes[node.name] = n
            nodeObjects.append(UnsafeMutableRawPointer(n))
        }
        var clusterObjects: [UnsafeMutableRawPointer] = []
        for cluster in graph.clusters {
            let sub = mutableCString("cluster_" + cluster.name) { agsubg(g, $0, 1) }!
            for name in cluster.nodes { _ = agsubnode(sub, nodes[name]!, 1) }
            clusterObjects.append(UnsafeMutableRawPointer(sub))
        }
        var rankGroups: [UnsafeMutableRawPointer] = []
        for (k, group) in graph.sameRank.enumerated() {
            let sub = mutableCString("rank_\(k)") { agsubg(g, $0, 1) }!
            for name in group { _ = agsubnode(sub, nodes[name]!, 1) }
            rankGroups.append(UnsafeMutableRawPointer(sub))
        }
        var edgeObjects: [UnsafeMutableRawPointer] = []
        edgeObjects.reserveCapacity(graph.edges.count)
        for edge in graph.edges {
            edgeObjects.append(UnsafeMutableRawPointer(agedge(g, nodes[edge.tail]!, nodes[edge.head]!, nil, 1)!))
        }

        let nodeKind = Int32(AGNODE)
        let edgeKind = Int32(AGEDGE)
        let graphKind = Int32(AGRAPH)
        var declared: [[String: UnsafeMutablePointer<Agsym_t>]] = [[:], [:], [:]]  // by kind: graph, node, edge
        func symbol(_ kind: Int32, _ name: String, _ defaults: GraphDescription.Attributes) -> UnsafeMutablePointer<
            Agsym_t
        > {
            if let sym = declared[Int(kind)][name] { return sym }
            let fallback = GraphDescription.Value(kind == nodeKind && name == "label" ? "\\N" : "")
            let sym = declareAttribute(g, kind, name, defaults[name] ?? fallback)
            declared[Int(kind)][name] = sym
            return sym
        }
        for (name, _) in graph.nodeDefaults { _ = symbol(nodeKind, name, graph.nodeDefaults) }
        for (name, _) in graph.edgeDefaults { _ = symbol(edgeKind, name, graph.edgeDefaults) }
        // Graphviz resets the default node label to "\N" during layout, so a
        // default label is given to every node that has none of its own.
        let defaultLabel = graph.nodeDefaults["label"]
        for (object, node) in zip(nodeObjects, graph.nodes) {
            for (name, value) in node.attributes { set(g, object, symbol(nodeKind, name, graph.nodeDefaults), value) }
            if let defaultLabel, node.attributes["label"] == nil {
                set(g, object, symbol(nodeKind, "label", graph.nodeDefaults), defaultLabel)
            }
        }
        for (object, edge) in zip(edgeObjects, graph.edges) {
            for (name, value) in edge.attributes { set(g, object, symbol(edgeKind, name, graph.edgeDefaults), value) }
        }
        let noDefaults: GraphDescription.Attributes = [:]
        for (object, cluster) in zip(clusterObjects, graph.clusters) {
            for (name, value) in cluster.attributes { set(g, object, symbol(graphKind, name, noDefaults), value) }
        }
        if !rankGroups.isEmpty {
            let rank = symbol(graphKind, "rank", noDefaults)
            for group in rankGroups { set(g, group, rank, "same") }
        }
        for (name, value) in graph.graphAttributes {
            set(g, UnsafeMutableRawPointer(g), symbol(graphKind, name, noDefaults), value)
        }
        return Objects(nodes: nodeObjects, edges: edgeObjects, clusters: clusterObjects)
    }

    private static func declareAttribute(
        _ g: Graph, _ kind: Int32, _ name: String, _ value: GraphDescription.Value
    ) -> UnsafeMutablePointer<Agsym_t> {
        mutableCString(name) { cName in
            withValue(g, value) { agattr(g, kind, cName, $0) }
        }!
    }

    private static func set(
        _ g: Graph, _ object: UnsafeMutableRawPointer, _ symbol: UnsafeMutablePointer<Agsym_t>,
        _ value: GraphDescription.Value
    ) {
        _ = withValue(g, value) { agxset(object, symbol, $0) }
    }

    /// Passes `value` as the C string cgraph wants: a mutable copy, or for an
    /// HTML-like label a string interned with `agstrdup_html` (released after).
    private static func withValue<R>(
        _ g: Graph, _ value: GraphDescription.Value, _ body: (UnsafeMutablePointer<CChar>) -> R
    ) -> R {
        guard value.isHTML else { return mutableCString(value.text, body) }
        let html = mutableCString(value.text) { agstrdup_html(g, $0) }!
        defer { agstrfree(g, html) }
        return body(html)
    }

    /// cgraph 2.42 takes `char *` for names and values (and copies them):
    /// hand it a temporary mutable, NUL-terminated copy of `text`.
    private static func mutableCString<R>(_ text: String, _ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        var text = text
        return text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: utf8.count + 1) { buffer in
                utf8.withMemoryRebound(to: CChar.self) { _ = buffer.initialize(fromContentsOf: $0) }
                buffer[utf8.count] = 0
                return body(buffer.baseAddress!)
            }
        }
    }
}

/// Object names with ids in creation order.
///
/// cgraph's default id discipline uses the address of the interned name as
/// the id, and orders subgraphs by id: clusters then come out (and are laid
/// out) in a different order on every run. This discipline numbers named
/// objects 2, 4, 6… in the order their names are first seen (anonymous ones
/// get odd numbers), so the same description gives the same SVG bytes.
/// Each graph gets its own table, made by `open` and freed by `close`
/// (both called by cgraph, under ``Graphviz``'s lock).
private enum Names {
    struct Table {
        var ids: [String: UInt64] = [:]
        /// Copies of the names (id 2k+2 at index k), freed with the table.
        var names: [UnsafeMutablePointer<CChar>] = []
        var anonymous: UInt64 = 1
    }

    /// Open tables by token (the discipline's state pointer).
    private static let tables = LockedValue<(next: Int, open: [Int: Table])>((1, [:]))

    /// A discipline with this id scheme and cgraph's default memory and I/O; free with ``release(_:)`` after `agclose`.
    static func discipline() -> UnsafeMutablePointer<Agdisc_t> {
        let id = UnsafeMutablePointer<Agiddisc_t>.allocate(capacity: 1)
        id.initialize(
            to: Agiddisc_t(
                open: open, map: map, alloc: { _, _, _ in 0 }, free: { _, _, _ in }, print: print, close: close,
                idregister: { _, _, _ in }))
        let discipline = UnsafeMutablePointer<Agdisc_t>.allocate(capacity: 1)
        discipline.initialize(to: Agdisc_t(mem: nil, id: id, io: nil))
        return discipline
    }

    static func release(_ discipline: UnsafeMutablePointer<Agdisc_t>) {
        discipline.pointee.id.deallocate()
        discipline.deallocate()
    }

    private static func token(_ state: UnsafeMutableRawPointer?) -> Int { Int(bitPattern: state) }

    private static let open:
        @convention(c) (UnsafeMutablePointer<Agraph_t>?, UnsafeMutablePointer<Agdisc_t>?)
            -> UnsafeMutableRawPointer? = { _, _ in
                let token = tables.withLock { state in
                    let token = state.next
                    state.next += 1
                    state.open[token] = Table()
                    return token
                }
                return UnsafeMutableRawPointer(bitPattern: token)
            }

    private static let map:
        @convention(c) (
            UnsafeMutableRawPointer?, Int32, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<IDTYPE>?, Int32
        ) -> Int = { state, _, name, id, create in
            tables.withLock { tables -> Int in
                guard let id, tables.open[token(state)] != nil else { return 0 }
                guard let name else {
                    id.pointee = tables.open[token(state)]!.anonymous
                    tables.open[token(state)]!.anonymous += 2
                    return 1
                }
                let key = String(cString: name)
                if let known = tables.open[token(state)]!.ids[key] {
                    id.pointee = known
                    return 1
                }
                guard create != 0 else { return 0 }
                let next = UInt64(tables.open[token(state)]!.names.count + 1) * 2
                tables.open[token(state)]!.names.append(strdup(name))
                tables.open[token(state)]!.ids[key] = next
                id.pointee = next
                return 1
            }
        }

    private static let print: @convention(c) (UnsafeMutableRawPointer?, Int32, IDTYPE) -> UnsafeMutablePointer<CChar>? =
        {
            state, _, id in
            guard id % 2 == 0, id > 0 else { return nil }
            let address = tables.withLock { tables -> Int in
                guard let names = tables.open[token(state)]?.names, Int(id / 2) <= names.count else { return 0 }
                return Int(bitPattern: names[Int(id / 2) - 1])
            }
            return UnsafeMutablePointer(bitPattern: address)
        }

    private static let close: @convention(c) (UnsafeMutableRawPointer?) -> Void = { state in
        let addresses = tables.withLock { tables in
            (tables.open.removeValue(forKey: token(state))?.names ?? []).map { Int(bitPattern: $0) }
        }
        for address in addresses { free(UnsafeMutablePointer<CChar>(bitPattern: address)) }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
