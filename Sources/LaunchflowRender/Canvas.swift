/// A drawing surface for the pinned (`nop`) charts: boxes and text at exact
/// positions, in points, with y measured **down** from the top edge.
///
/// Graphviz measures y upward; ``graph(name:attributes:)`` converts once the
/// height is known, so the SVG's coordinates are exactly ours (x unchanged,
/// SVG y = −(height − y) inside Graphviz's translated group). Items are drawn
/// in the order they were added.
struct Canvas {
    enum Alignment { case left, center, right }

    /// Width and height of the picture in points.
    var width: Double
    var height: Double = 0
    private var items: [(node: GraphDescription.Node, centerX: Double, centerY: Double)] = []
    private var firstID: String

    /// `backgroundID` is the id of the white box under everything, which also
    /// fixes the picture's bounding box to 0…width × 0…height.
    init(width: Double, backgroundID: String) {
        self.width = width
        self.firstID = backgroundID
    }

    var count: Int { items.count }

    /// A filled box from x0 to x1 (points), `top` to `top + height` (points, downward).
    /// `id` is the element id (and the Graphviz node name); `attributes` are
    /// added to the chart's node defaults (filled white box, transparent
    /// 0.8-point outline, no label, 9-point text).
    mutating func box(
        _ id: String, x0: Double, x1: Double, top: Double, height: Double,
        _ attributes: GraphDescription.Attributes = [:]
    ) {
        var node = GraphDescription.Node(name: GraphvizText.name(id), attributes)
        node.attributes["id"] = .init(GraphvizText.id(id))
        node.attributes["width"] = .init(Number.inches(fromPoints: x1 - x0))
        node.attributes["height"] = .init(Number.inches(fromPoints: height))
        items.append((node, (x0 + x1) / 2, top + height / 2))
    }

    /// One line of text with its left edge, centre or right edge at `x` and its
    /// vertical middle at `y` (points). `size` in points.
    mutating func text(
        _ id: String, _ text: String, x: Double, y: Double, size: Double = 10, align: Alignment = .left,
        color: String = ChartStyle.text, bold: Bool = false, tooltip: String? = nil
    ) {
        let boxWidth = ChartStyle.estimatedWidth(text, size: size) * 1.15 + 4
        let x0: Double
        switch align {
        case .left: x0 = x
        case .center: x0 = x - boxWidth / 2
        case .right: x0 = x - boxWidth
        }
        let end =
            align == .left ? GraphvizText.leftAlignedLineEnd : align == .right ? GraphvizText.rightAlignedLineEnd : ""
        var attributes: GraphDescription.Attributes = [
            "shape": "none", "style": "", "label": .init(GraphvizText.label(text) + end),
            "fontsize": .init(Number.points(size)), "fontcolor": .init(color),
        ]
        if bold { attributes["fontname"] = .init(ChartStyle.boldFont) }
        if let tooltip { attributes["tooltip"] = .init(GraphvizText.tooltip(tooltip)) }
        box(id, x0: x0, x1: x0 + boxWidth, top: y - size * 0.7, height: size * 1.4, attributes)
    }

    /// A vertical line at `x` from `top` to `bottom` (points), `thickness` points wide.
    mutating func verticalLine(
        _ id: String, x: Double, top: Double, bottom: Double, thickness: Double, color: String,
        _ extra: GraphDescription.Attributes = [:]
    ) {
        var attributes = extra
        attributes["fillcolor"] = .init(color)
        box(id, x0: x - thickness / 2, x1: x + thickness / 2, top: top, height: bottom - top, attributes)
    }

    /// A horizontal line at `y` from `x0` to `x1` (points).
    mutating func horizontalLine(_ id: String, x0: Double, x1: Double, y: Double, thickness: Double, color: String) {
        box(id, x0: x0, x1: x1, top: y - thickness / 2, height: thickness, ["fillcolor": .init(color)])
    }

    /// The finished picture: a `nop` graph whose nodes sit at their pinned
    /// positions (`notranslate=true`), on a white background box.
    func graph(name: String, graphID: String, tooltip: String? = nil) -> GraphDescription {
        var graph = GraphDescription(
            name: GraphvizText.name(name), layout: .nop,
            graphAttributes: [
                "id": .init(GraphvizText.id(graphID)), "notranslate": "true", "bgcolor": "white",
                "pad": "0.1", "outputorder": "nodesfirst",
            ],
            nodeDefaults: [
                // fixedsize=shape, not true: a box keeps its size and a label may be wider
                // than the estimate made it. With true, such a label (a 4,096-character id)
                // makes Graphviz 2.43 warn "size too small for label" with a bad node name
                // pointer, and crash formatting it (found by the fuzzer).
                "shape": "box", "fixedsize": "shape", "style": "filled", "label": "", "margin": "0",
                "penwidth": "0.8", "color": "transparent", "fillcolor": "white",
                "fontname": .init(ChartStyle.font), "fontsize": "9", "fontcolor": .init(ChartStyle.text),
            ])
        if let tooltip { graph.graphAttributes["tooltip"] = .init(GraphvizText.tooltip(tooltip)) }
        graph.nodes.reserveCapacity(items.count + 1)
        var background = GraphDescription.Node(
            name: GraphvizText.name(firstID),
            [
                "id": .init(GraphvizText.id(firstID)),
                "pos": .init(Number.points(width / 2) + "," + Number.points(height / 2)),
                "width": .init(Number.inches(fromPoints: width)), "height": .init(Number.inches(fromPoints: height)),
            ])
        background.attributes["fillcolor"] = "white"
        graph.nodes.append(background)
        for (node, centerX, centerY) in items {
            var node = node
            node.attributes["pos"] = .init(Number.points(centerX) + "," + Number.points(height - centerY))
            graph.nodes.append(node)
        }
        return graph
    }
}
