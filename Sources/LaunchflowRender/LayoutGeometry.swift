/// Where a layout engine put things, in Graphviz's own units: points, y
/// growing upward (the SVG negates it). ``Graphviz/svg(_:adjustingLayout:)``
/// reads it after `dot`, lets a chart move things, and draws the result with
/// `nop2` — nodes, clusters and edges exactly where the geometry says.
///
/// Arrays follow the ``GraphDescription``'s order: `nodes[k]` is
/// `description.nodes[k]`, `edges[k]` is `description.edges[k]`,
/// `clusters[k]` is `description.clusters[k]`.
public struct LayoutGeometry: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    public struct Box: Sendable, Equatable {
        public var minX: Double
        public var minY: Double
        public var maxX: Double
        public var maxY: Double
        public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }
    }

    /// One piecewise cubic Bézier curve (3k + 1 points) and, when the edge
    /// has an arrowhead there, the point its tip touches (`end`) or its tail's (`start`).
    public struct Spline: Sendable, Equatable {
        public var start: Point?
        public var end: Point?
        public var points: [Point]
        public init(start: Point? = nil, end: Point? = nil, points: [Point]) {
            self.start = start
            self.end = end
            self.points = points
        }
    }

    public struct Node: Sendable, Equatable {
        public var center: Point
        /// Points.
        public var width: Double
        public var height: Double
    }

    public struct Cluster: Sendable, Equatable {
        public var box: Box
        /// Where its label is centred, when it has one.
        public var label: Point?
    }

    public var nodes: [Node]
    /// Usually one spline per edge (none when the engine drew nothing).
    public var edges: [[Spline]]
    public var clusters: [Cluster]
    /// The whole drawing.
    public var bounds: Box
    /// The graph label's centre, when it has one.
    public var label: Point?

    // MARK: - Graphviz's attribute syntax

    /// "x,y" (a trailing "!" allowed).
    static func point(_ text: String) -> Point? {
        let parts = text.split(separator: ",")
        guard parts.count >= 2, let x = Double(parts[0]), let y = Double(parts[1].filter { $0 != "!" }) else {
            return nil
        }
        return Point(x, y)
    }

    /// "llx,lly,urx,ury".
    static func box(_ text: String) -> Box? {
        let values = text.split(separator: ",").compactMap { Double($0) }
        guard values.count == 4 else { return nil }
        return Box(minX: values[0], minY: values[1], maxX: values[2], maxY: values[3])
    }

    /// An edge's `pos`: splines separated by ";", each "[s,x,y] [e,x,y] x,y x,y …".
    static func splines(_ text: String) -> [Spline] {
        text.split(separator: ";").compactMap { part in
            var spline = Spline(points: [])
            for token in part.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\\" }) {
                if token.hasPrefix("e,") {
                    spline.end = point(String(token.dropFirst(2)))
                } else if token.hasPrefix("s,") {
                    spline.start = point(String(token.dropFirst(2)))
                } else if let p = point(String(token)) {
                    spline.points.append(p)
                }
            }
            return spline.points.count >= 4 && spline.points.count % 3 == 1 ? spline : nil
        }
    }

    static func text(_ p: Point) -> String { Number.points(p.x) + "," + Number.points(p.y) }

    static func text(_ b: Box) -> String {
        [b.minX, b.minY, b.maxX, b.maxY].map(Number.points).joined(separator: ",")
    }

    static func text(_ splines: [Spline]) -> String {
        splines.map { spline in
            var tokens: [String] = []
            if let start = spline.start { tokens.append("s," + text(start)) }
            if let end = spline.end { tokens.append("e," + text(end)) }
            return (tokens + spline.points.map(text)).joined(separator: " ")
        }.joined(separator: ";")
    }
}

extension LayoutGeometry.Point {
    static func + (a: Self, b: Self) -> Self { Self(a.x + b.x, a.y + b.y) }
    static func - (a: Self, b: Self) -> Self { Self(a.x - b.x, a.y - b.y) }
    static func * (a: Self, k: Double) -> Self { Self(a.x * k, a.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
}
