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
    static let besideSize = 7.5
    static let numberSize = 7.5

    /// The left and right limits of the plot, in points.
    let minX: Double
    let maxX: Double
    /// Boxes already taken (other lanes' labels may not be here, but markers might).
    private(set) var taken: [Box] = []
    /// The next key number.
    private(set) var nextNumber: Int

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
        let middle = (band.top + band.bottom) / 2
        let slots = [middle, band.top + 5, band.bottom - 5]
        var placements: [Int: Placement] = [:]
        for k in order where !bars[k].label.isEmpty {
            let bar = bars[k]
            if let size = Self.insideSize(bar.label, width: bar.x1 - bar.x0) {
                placements[bar.index] = .inside(size: size)
                continue
            }
            let others = barBoxes.indices.filter { $0 != k }.map { barBoxes[$0] } + obstacles
            let width = Self.width(bar.label, size: Self.besideSize)
            if let spot = free(width: width, around: barBoxes[k], slots: slots, avoiding: others) {
                placements[bar.index] = .beside(x: spot.x0, y: (spot.y0 + spot.y1) / 2)
                taken.append(spot)
                continue
            }
            let number = nextNumber
            nextNumber += 1
            let numberWidth = Self.width(String(number), size: Self.numberSize)
            let centre = (bar.x0 + bar.x1) / 2
            let onBar = Box(
                x0: centre - numberWidth / 2, x1: centre + numberWidth / 2, y0: middle - Self.numberSize * 0.6,
                y1: middle + Self.numberSize * 0.6)
            if bar.x1 - bar.x0 >= numberWidth + 2 && !taken.contains(where: onBar.overlaps) {
                taken.append(onBar)
                placements[bar.index] = .keyed(number: number, x: centre, y: middle)
                continue
            }
            let spot =
                free(width: numberWidth, around: barBoxes[k], slots: slots, avoiding: others)
                ?? onOrBeside(barBoxes[k], width: numberWidth, slots: slots)
            taken.append(spot)
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
        return candidates.first { !taken.contains(where: $0.overlaps) } ?? candidates[0]
    }

    /// A free box `width` wide right of `bar` (then left of it), in the first
    /// slot where it meets no other bar and no label placed before; nil when none is.
    private func free(width: Double, around bar: Box, slots: [Double], avoiding bars: [Box]) -> Box? {
        let height = Self.besideSize * 1.2
        for y in slots {
            for x0 in [bar.x1 + 2, bar.x0 - 2 - width] {
                let box = Box(x0: x0, x1: x0 + width, y0: y - height / 2, y1: y + height / 2)
                guard box.x0 >= minX, box.x1 <= maxX else { continue }
                if bars.contains(where: box.overlaps) || taken.contains(where: box.overlaps) { continue }
                return box
            }
        }
        return nil
    }
}
