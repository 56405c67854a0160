/// Where each bar's label goes, so that every bar can be told apart and no
/// two labels overlap: inside the bar when the whole text fits, else beside
/// it (right, then left) in free space of its lane, else a number beside or
/// on the bar that a key under the panel spells out.
///
/// All geometry in points, y downward. Text widths are estimated
/// (``ChartStyle/estimatedWidth(_:size:)`` with a 15% margin), so a placed
/// label's box is never smaller than the text Graphviz draws.
struct LabelPlanner {
    /// One bar of a lane: its index (the caller's), extent and label text.
    struct Bar {
        var index: Int
        var x0: Double
        var x1: Double
        var label: String
    }

    enum Placement: Equatable {
        /// Centred in the bar, at `size` points.
        case inside(size: Double)
        /// The whole label with its left edge at `x` and its middle at `y`.
        case beside(x: Double, y: Double)
        /// The key's number `number` centred at (`x`, `y`).
        case keyed(number: Int, x: Double, y: Double)
    }

    /// A rectangle: `x0…x1` × `y0…y1`.
    struct Box: Equatable {
        var x0, x1, y0, y1: Double
        func overlaps(_ other: Box) -> Bool { x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1 }
    }

    static let insideSizes = [9.0, 7.0]
    /// At most this many numbers per picture: past it, a bar too narrow for its
    /// label is named by its tooltip only (a key of thousands helps no one).
    static let maxKeyed = 300
    static let besideSize = 7.5
    static let numberSize = 7.5

    /// The left and right limits of the plot, in points.
    let minX: Double
    let maxX: Double
    /// Labels already placed, found by x through ``Grid``.
    private var taken = Grid()
    /// The next key number.
    private(set) var nextNumber: Int
    /// Bars left without a label: past ``maxKeyed``.
    private(set) var unnamed = 0

    init(minX: Double, maxX: Double, firstNumber: Int = 1) {
        self.minX = minX
        self.maxX = maxX
        self.nextNumber = firstNumber
    }

    /// The width of `text` at `size` points, with margin.
    static func width(_ text: String, size: Double) -> Double { ChartStyle.estimatedWidth(text, size: size) * 1.15 }

    /// Whether `label` fits inside a bar `width` points wide: its size, else nil.
    static func insideSize(_ label: String, width: Double) -> Double? {
        guard !label.isEmpty else { return nil }
        return insideSizes.first { ChartStyle.estimatedWidth(label, size: $0) + 6 <= width }
    }

    /// Places the labels of one lane's `bars` inside `band` (top…bottom),
    /// clear of `obstacles` (other marks in the band: commits, pre-main).
    /// Returns a placement per bar index (empty labels get none).
    mutating func place(
        _ bars: [Bar], band: (top: Double, bottom: Double), obstacles: [Box] = []
    ) -> [Int: Placement] {
        let order = bars.indices.sorted { (bars[$0].x0, bars[$0].index) < (bars[$1].x0, bars[$1].index) }
        let barBoxes = bars.map { Box(x0: $0.x0, x1: max($0.x1, $0.x0 + 0.5), y0: band.top, y1: band.bottom) }
        var marks = Grid()
        for (k, box) in barBoxes.enumerated() { marks.insert(box, owner: k) }
        for box in obstacles { marks.insert(box, owner: -1) }
        let middle = (band.top + band.bottom) / 2
        let slots = [middle, band.top + 5, band.bottom - 5]
        var placements: [Int: Placement] = [:]
        for k in order where !bars[k].label.isEmpty {
            let bar = bars[k]
            if let size = Self.insideSize(bar.label, width: bar.x1 - bar.x0) {
                placements[bar.index] = .inside(size: size)
                continue
            }
            let width = Self.width(bar.label, size: Self.besideSize)
            if let spot = free(width: width, around: barBoxes[k], slots: slots, avoiding: marks, except: k) {
                placements[bar.index] = .beside(x: spot.x0, y: (spot.y0 + spot.y1) / 2)
                taken.insert(spot, owner: k)
                continue
            }
            guard nextNumber <= Self.maxKeyed else {  // past the key's limit: the tooltip names it
                unnamed += 1
                continue
            }
            let number = nextNumber
            nextNumber += 1
            let numberWidth = Self.width(String(number), size: Self.numberSize)
            let centre = (bar.x0 + bar.x1) / 2
            let onBar = Box(
                x0: centre - numberWidth / 2, x1: centre + numberWidth / 2, y0: middle - Self.numberSize * 0.6,
                y1: middle + Self.numberSize * 0.6)
            if bar.x1 - bar.x0 >= numberWidth + 2 && !taken.overlaps(onBar, except: -2) {
                taken.insert(onBar, owner: k)
                placements[bar.index] = .keyed(number: number, x: centre, y: middle)
                continue
            }
            let spot =
                free(width: numberWidth, around: barBoxes[k], slots: slots, avoiding: marks, except: k)
                ?? onOrBeside(barBoxes[k], width: numberWidth, slots: slots)
            taken.insert(spot, owner: k)
            placements[bar.index] = .keyed(number: number, x: (spot.x0 + spot.x1) / 2, y: (spot.y0 + spot.y1) / 2)
        }
        return placements
    }

    /// A box `width` wide for a number on `bar` or beside it that covers no
    /// label placed before (it may cover a neighbouring bar: the bars are
    /// too close for anything else).
    private func onOrBeside(_ bar: Box, width: Double, slots: [Double]) -> Box {
        let height = Self.numberSize * 1.2
        let centre = (bar.x0 + bar.x1) / 2
        var candidates: [Box] = []
        for y in slots {
            for x0 in [centre - width / 2, bar.x1 + 1, bar.x0 - 1 - width, bar.x1 + 1 + width, bar.x0 - 1 - 2 * width] {
                candidates.append(Box(x0: x0, x1: x0 + width, y0: y - height / 2, y1: y + height / 2))
            }
        }
        return candidates.first { !taken.overlaps($0, except: -2) } ?? candidates[0]
    }

    /// A free box `width` wide right of `bar` (then left of it), in the first
    /// slot where it meets no other bar and no label placed before; nil when none is.
    private func free(width: Double, around bar: Box, slots: [Double], avoiding marks: Grid, except own: Int) -> Box? {
        let height = Self.besideSize * 1.2
        for y in slots {
            for x0 in [bar.x1 + 2, bar.x0 - 2 - width] {
                let box = Box(x0: x0, x1: x0 + width, y0: y - height / 2, y1: y + height / 2)
                guard box.x0 >= minX, box.x1 <= maxX else { continue }
                if marks.overlaps(box, except: own) || taken.overlaps(box, except: -2) { continue }
                return box
            }
        }
        return nil
    }

    /// Boxes found by x: each is filed under every 32-point column it
    /// spans, so a lookup reads only the boxes near it (a lane of thousands
    /// of bars stays linear).
    struct Grid {
        private var columns: [Int: [(box: Box, owner: Int)]] = [:]
        private static let column = 32.0

        private static func range(_ box: Box) -> ClosedRange<Int> {
            Int((box.x0 / column).rounded(.down))...Int((box.x1 / column).rounded(.down))
        }

        /// Files `box`; `owner` is its bar (−1: an obstacle).
        mutating func insert(_ box: Box, owner: Int) {
            for c in Self.range(box) { columns[c, default: []].append((box, owner)) }
        }

        /// Whether `box` overlaps a filed box whose owner is not `own`.
        func overlaps(_ box: Box, except own: Int) -> Bool {
            for c in Self.range(box) {
                if let column = columns[c], column.contains(where: { $0.owner != own && $0.box.overlaps(box) }) {
                    return true
                }
            }
            return false
        }
    }
}
