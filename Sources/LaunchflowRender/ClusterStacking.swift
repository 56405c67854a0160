/// Puts a `dot` layout's clusters top to bottom in the order the description
/// lists them, after the layout (`rankdir=LR`).
///
/// `dot` orders clusters within a rank to cut crossings and ignores every
/// hint about that order (input order, invisible or flat edges between
/// clusters, `ordering=out`, `mclimit`): tier 1 came out above tier 0. So the
/// description makes the clusters horizontal bands — each holds an invisible
/// node on the first rank, so any two clusters share a rank and cannot sit
/// side by side — and this step restacks the bands in order:
///
/// - each band moves vertically with its nodes, label and the edges inside
///   it, which keep `dot`'s routes;
/// - the gaps between bands are kept, widened where edges run along them;
/// - an edge between two bands is routed again, with rounded corners, through
///   space `dot` leaves free of nodes: from its tail to the channel between its
///   tail's column and the next, along that channel to the gap beside the
///   head's band, along that gap to the channel before the head's column,
///   and into the head (adjacent columns: tail, channel, head). Edges sharing
///   a channel or gap are spread a few points apart.
///
/// When `dot`'s bands are already in order nothing moves (the picture is
/// exactly `dot`'s); when they overlap (they should not), nothing moves either.
///
/// - Complexity: O(n + e + c log c) for n nodes, e edges and c clusters.
struct ClusterStacking {
    /// For each description node, its cluster's index (nil outside clusters).
    var clusterOf: [Int?]
    /// For each description edge, its tail's and head's node indices.
    var ends: [(tail: Int, head: Int)]
    var clusterCount: Int

    init(_ graph: GraphDescription) {
        var index: [String: Int] = [:]
        for (k, node) in graph.nodes.enumerated() { index[node.name] = k }
        var clusterOf = [Int?](repeating: nil, count: graph.nodes.count)
        for (c, cluster) in graph.clusters.enumerated() {
            for name in cluster.nodes { if let k = index[name] { clusterOf[k] = c } }
        }
        self.clusterOf = clusterOf
        ends = graph.edges.map { (index[$0.tail] ?? 0, index[$0.head] ?? 0) }
        clusterCount = graph.clusters.count
    }

    /// Space between edges that share a channel or a gap, in points.
    static let laneSpacing = 3.0
    /// Radius of a routed edge's corners, in points (less on short legs).
    static let cornerRadius = 8.0

    typealias Point = LayoutGeometry.Point

    /// Restacks the bands in tier order when dot drew them in another
    /// (bands that overlap, or already in order, are left as dot drew them).
    func apply(_ geometry: inout LayoutGeometry) {
        let count = clusterCount
        guard count > 1, geometry.clusters.count == count, geometry.nodes.count == clusterOf.count,
            geometry.edges.count == ends.count
        else { return }
        let boxes = geometry.clusters.map(\.box)
        // Bands as drawn, top first; they must not overlap vertically.
        let drawn = (0..<count).sorted {
            boxes[$0].maxY > boxes[$1].maxY || (boxes[$0].maxY == boxes[$1].maxY && $0 < $1)
        }
        for (upper, lower) in zip(drawn, drawn.dropFirst()) where boxes[lower].maxY > boxes[upper].minY + 0.5 {
            return
        }
        if drawn == Array(0..<count) { return }

        let columns = Columns(geometry, clusterOf: clusterOf)
        let gapOf = crossingGaps(columns)
        let stack = restack(&geometry, drawn: drawn, gapOf: gapOf)
        let routes = plannedRoutes(&geometry, columns: columns, gapOf: gapOf, stack: stack)
        draw(routes, into: &geometry, columns: columns, stack: stack)
    }

    /// Which gap (k: between bands k and k + 1 in the new order) each edge
    /// that skips a column between two bands runs along; nil for the others.
    fileprivate func crossingGaps(_ columns: Columns) -> [Int?] {
        var gapOf = [Int?](repeating: nil, count: ends.count)
        for (e, (tail, head)) in ends.enumerated() {
            guard let a = clusterOf[tail], let b = clusterOf[head], a != b,
                let ct = columns.index[tail], let ch = columns.index[head], ch > ct + 1
            else { continue }
            gapOf[e] = a < b ? b - 1 : b  // beside the head's band, facing the tail
        }
        return gapOf
    }

    /// Where the bands went: each band's vertical shift, the gaps below them and their centres.
    struct Stack {
        var shift: [Double]
        var gaps: [Double]
        var gapCenters: [Double]
    }

    /// Moves every band (its box, label and nodes, and the picture's title)
    /// to its place in tier order, the gaps wide enough for their lanes.
    func restack(_ geometry: inout LayoutGeometry, drawn: [Int], gapOf: [Int?]) -> Stack {
        let count = clusterCount
        let boxes = geometry.clusters.map(\.box)
        var lanesInGap = [Int](repeating: 0, count: count)
        for gap in gapOf.compactMap({ $0 }) { lanesInGap[gap] += 1 }
        var gaps = zip(drawn, drawn.dropFirst()).map { boxes[$0].minY - boxes[$1].maxY }
        for k in gaps.indices { gaps[k] = max(gaps[k], Double(lanesInGap[k] + 1) * Self.laneSpacing) }
        let oldHeight = boxes[drawn[0]].maxY - boxes[drawn[count - 1]].minY
        let newHeight = boxes.reduce(0) { $0 + $1.maxY - $1.minY } + gaps.reduce(0, +)
        let grow = max(newHeight - oldHeight, 0)

        // The top band stays where the top band was (raised by what the gaps grew).
        var shift = [Double](repeating: 0, count: count)
        var top = boxes[drawn[0]].maxY + grow
        for c in 0..<count {
            shift[c] = top - boxes[c].maxY
            top -= boxes[c].maxY - boxes[c].minY + (c < count - 1 ? gaps[c] : 0)
        }
        geometry.bounds.maxY += grow
        if let label = geometry.label { geometry.label = Point(label.x, label.y + grow) }
        for c in 0..<count {
            geometry.clusters[c].box.minY += shift[c]
            geometry.clusters[c].box.maxY += shift[c]
            if let label = geometry.clusters[c].label {
                geometry.clusters[c].label = Point(label.x, label.y + shift[c])
            }
        }
        for k in geometry.nodes.indices {
            if let c = clusterOf[k] { geometry.nodes[k].center.y += shift[c] }
        }
        var gapCenters = [Double](repeating: 0, count: count)
        for k in 0..<(count - 1) {
            gapCenters[k] = (geometry.clusters[k].box.minY + geometry.clusters[k + 1].box.maxY) / 2
        }
        return Stack(shift: shift, gaps: gaps, gapCenters: gapCenters)
    }

    /// A rerouted edge's legs: vertical ones in channels, a horizontal one in a gap.
    struct Route {
        var start: Point
        var tip: Point
        var arrow: Double
        /// (channel, its vertical leg's length); the horizontal leg's gap and length.
        var channels: [(channel: Int, length: Double)] = []
        var gap: (index: Int, length: Double)? = nil
    }

    /// Moves the edges inside a band with it and plans a route for every
    /// edge between bands (or to a node outside them).
    fileprivate func plannedRoutes(_ geometry: inout LayoutGeometry, columns: Columns, gapOf: [Int?], stack: Stack)
        -> [Int: Route]
    {
        var routes: [Int: Route] = [:]
        for (e, (tail, head)) in ends.enumerated() {
            let a = clusterOf[tail]
            let b = clusterOf[head]
            if let a, a == b {
                geometry.edges[e] = geometry.edges[e].map { Self.shifted($0, by: stack.shift[a]) }
                continue
            }
            guard a != nil || b != nil, let original = geometry.edges[e].first else { continue }
            let t = geometry.nodes[tail]
            let h = geometry.nodes[head]
            var route = Route(
                start: Point(t.center.x + t.width / 2, t.center.y), tip: Point(h.center.x - h.width / 2, h.center.y),
                arrow: original.end.map { ($0 - original.points[original.points.count - 1]).length } ?? 0)
            if let ct = columns.index[tail], let ch = columns.index[head], ch > ct {
                if let gap = gapOf[e] {
                    let y = stack.gapCenters[gap]
                    route.channels = [(ct, abs(y - route.start.y)), (ch - 1, abs(route.tip.y - y))]
                    route.gap = (gap, columns.channel(after: ch - 1).x - columns.channel(after: ct).x)
                } else {
                    route.channels = [(ct, abs(route.tip.y - route.start.y))]
                }
            }
            routes[e] = route
        }
        return routes
    }

    /// Lays the routes' legs in lanes — the longest leg outermost (leftmost
    /// in a channel, farthest from the head's band in a gap), so that legs
    /// leaving a shared stretch earlier do not cross those that go on — and
    /// draws each as square lines with rounded corners.
    fileprivate func draw(_ routes: [Int: Route], into geometry: inout LayoutGeometry, columns: Columns, stack: Stack) {
        var channelLegs: [Int: [(edge: Int, length: Double)]] = [:]
        var gapLegs: [Int: [(edge: Int, length: Double)]] = [:]
        for (e, route) in routes {
            for leg in route.channels { channelLegs[leg.channel, default: []].append((e, leg.length)) }
            if let gap = route.gap { gapLegs[gap.index, default: []].append((e, gap.length)) }
        }
        func offsets(_ legs: [(edge: Int, length: Double)], width: Double) -> [Int: Double] {
            let sorted = legs.sorted { $0.length > $1.length || ($0.length == $1.length && $0.edge < $1.edge) }
            let spacing = min(Self.laneSpacing, max(width - 4, 0) / Double(max(sorted.count - 1, 1)))
            var result: [Int: Double] = [:]
            for (k, leg) in sorted.enumerated() {
                result[leg.edge] = (Double(k) - Double(sorted.count - 1) / 2) * spacing
            }
            return result
        }
        var channelOffset: [Int: [Int: Double]] = [:]
        for (channel, legs) in channelLegs {
            channelOffset[channel] = offsets(legs, width: columns.channel(after: channel).width)
        }
        var gapOffset: [Int: [Int: Double]] = [:]
        for (gap, legs) in gapLegs { gapOffset[gap] = offsets(legs, width: stack.gaps[gap]) }
        for (e, route) in routes {
            var corners = [route.start]
            let xs = route.channels.map { columns.channel(after: $0.channel).x + channelOffset[$0.channel]![e]! }
            if let gap = route.gap {
                // Outermost = farthest from the head's band: above it (tail above) is up, y growing upward.
                let headBelow = clusterOf[ends[e].head]! == gap.index + 1
                let y = stack.gapCenters[gap.index] + (headBelow ? -1 : 1) * gapOffset[gap.index]![e]!
                corners += [Point(xs[0], route.start.y), Point(xs[0], y), Point(xs[1], y), Point(xs[1], route.tip.y)]
            } else if let x = xs.first {
                corners += [Point(x, route.start.y), Point(x, route.tip.y)]
            }
            corners.append(Point(route.tip.x - route.arrow, route.tip.y))
            geometry.edges[e] = [
                LayoutGeometry.Spline(
                    end: route.arrow > 0 ? route.tip : nil, points: Self.rounded(corners, radius: Self.cornerRadius))
            ]
        }
    }

    static func shifted(_ spline: LayoutGeometry.Spline, by dy: Double) -> LayoutGeometry.Spline {
        let move = { (p: Point) in Point(p.x, p.y + dy) }
        return LayoutGeometry.Spline(
            start: spline.start.map(move), end: spline.end.map(move), points: spline.points.map(move))
    }

    /// A polyline as a cubic Bézier curve: straight legs, each corner a quarter-circle-like arc.
    static func rounded(_ polyline: [Point], radius: Double) -> [Point] {
        var corners: [Point] = []
        for p in polyline {
            if let last = corners.last, (p - last).length < 0.01 { continue }
            if corners.count >= 2 {
                let a = corners[corners.count - 2]
                let b = corners[corners.count - 1]
                let cross = (b.x - a.x) * (p.y - b.y) - (b.y - a.y) * (p.x - b.x)
                if abs(cross) < 0.01 { corners.removeLast() }  // b is on the line from a to p
            }
            corners.append(p)
        }
        guard corners.count >= 2 else {
            let p = polyline.first ?? Point(0, 0)
            return [p, p, p, p]
        }
        var points = [corners[0]]
        func straight(to q: Point) {
            let p = points[points.count - 1]
            points += [p + (q - p) * (1.0 / 3), p + (q - p) * (2.0 / 3), q]
        }
        for k in 1..<(corners.count - 1) {
            let a = corners[k - 1]
            let b = corners[k]
            let c = corners[k + 1]
            let r = min(radius, (b - a).length / 2, (c - b).length / 2)
            let enter = b - (b - a) * (r / (b - a).length)
            let leave = b + (c - b) * (r / (c - b).length)
            straight(to: enter)
            points += [enter + (b - enter) * 0.55, leave + (b - leave) * 0.55, leave]
        }
        straight(to: corners[corners.count - 1])
        return points
    }
}

/// The layout's columns (`dot`'s ranks, left to right under `rankdir=LR`):
/// nodes with the same centre x, and how far their boxes reach.
private struct Columns {
    /// Each clustered node's column.
    var index: [Int: Int] = [:]
    var left: [Double] = []
    var right: [Double] = []

    init(_ geometry: LayoutGeometry, clusterOf: [Int?]) {
        let nodes = geometry.nodes.indices.filter { clusterOf[$0] != nil && geometry.nodes[$0].width > 1 }
        let centers = Set(nodes.map { (geometry.nodes[$0].center.x * 2).rounded() }).sorted()
        var column: [Double: Int] = [:]
        for (k, x) in centers.enumerated() { column[x] = k }
        left = [Double](repeating: .infinity, count: centers.count)
        right = [Double](repeating: -.infinity, count: centers.count)
        for k in nodes {
            let node = geometry.nodes[k]
            let c = column[(node.center.x * 2).rounded()]!
            index[k] = c
            left[c] = min(left[c], node.center.x - node.width / 2)
            right[c] = max(right[c], node.center.x + node.width / 2)
        }
    }

    /// The free channel between column `c` and the next: its centre and width.
    func channel(after c: Int) -> (x: Double, width: Double) {
        guard c + 1 < left.count else { return (right[c] + 16, 32) }
        return ((right[c] + left[c + 1]) / 2, left[c + 1] - right[c])
    }
}
