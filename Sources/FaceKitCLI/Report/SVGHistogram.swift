import Foundation

/// A bar chart drawn as inline SVG: one bar per bin, its count above it, the bins' labels below.
///
/// ```swift
/// SVGHistogram(title: "Faces per photo", bins: [("0", 3), ("1", 12), ("2", 4)]).svg()
/// ```
struct SVGHistogram {
    var title: String
    var axisLabel: String
    var bins: [(label: String, count: Int)]

    static let width = 640.0
    static let height = 220.0

    func svg() -> String {
        let left = 40.0, right = 10.0, top = 24.0, bottom = 44.0
        let plotWidth = Self.width - left - right
        let plotHeight = Self.height - top - bottom
        let highest = max(1, bins.map(\.count).max() ?? 1)
        let slot = plotWidth / Double(max(1, bins.count))
        var svg = """
            <svg class="histogram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" \
            role="img" aria-label="\(HTMLText.escaped(title))">
            <title>\(HTMLText.escaped(title))</title>
            <line class="axis" x1="\(left)" y1="\(top + plotHeight)" x2="\(left + plotWidth)" y2="\(top + plotHeight)"/>

            """
        // Labels thin out when the bins are many, so that they do not overlap.
        let labelEvery = max(1, Int((Double(bins.count) * 34 / plotWidth).rounded(.up)))
        for (index, bin) in bins.enumerated() {
            let barHeight = plotHeight * Double(bin.count) / Double(highest)
            let x = left + slot * Double(index)
            let n = HTMLText.number
            svg += "<rect class=\"bar\" x=\"\(n(x + slot * 0.1, 1))\" y=\"\(n(top + plotHeight - barHeight, 1))\" "
            svg += "width=\"\(n(slot * 0.8, 1))\" height=\"\(n(barHeight, 1))\"><title>"
            svg += HTMLText.escaped("\(bin.label): \(bin.count)") + "</title></rect>\n"
            if bin.count > 0 {
                svg += "<text class=\"count\" x=\"\(n(x + slot / 2, 1))\" y=\"\(n(top + plotHeight - barHeight - 4, 1))\">"
                svg += "\(bin.count)</text>\n"
            }
            if index % labelEvery == 0 {
                svg += "<text class=\"label\" x=\"\(n(x + slot / 2, 1))\" y=\"\(n(top + plotHeight + 16, 1))\">"
                svg += HTMLText.escaped(bin.label) + "</text>\n"
            }
        }
        svg += "<text class=\"axis-label\" x=\"\(HTMLText.number(left + plotWidth / 2))\" y=\"\(Int(Self.height - 6))\">"
        svg += HTMLText.escaped(axisLabel) + "</text>\n</svg>"
        return svg
    }

    /// Counts whole numbers (faces per photo) in one bin each from 0 to the largest, when that
    /// is at most `maxBins` bins; else in bins of a round width (2, 5, 10, 20 ...), labelled by
    /// their range.
    static func countBins(_ values: [Int], maxBins: Int = 30) -> [(label: String, count: Int)] {
        guard let high = values.max(), high >= 0 else { return [] }
        let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].first { high / $0 + 1 <= maxBins } ?? (high / maxBins + 1)
        var counts = [Int](repeating: 0, count: high / step + 1)
        for value in values where value >= 0 { counts[value / step] += 1 }
        return counts.enumerated().map { index, n in
            let lower = index * step
            return (step == 1 ? String(lower) : "\(lower)-\(lower + step - 1)", n)
        }
    }

    /// Counts sizes in pixels in bins that double (8-16, 16-32, 32-64 ...), from the bin of the
    /// smallest to that of the largest: face sizes span orders of magnitude, and a bin per
    /// doubling reads as "small, medium, large" at any scale.
    static func doublingBins(_ values: [Double]) -> [(label: String, count: Int)] {
        // Up to 2^40 px, far past any image, so that a bin's bounds always fit an Int.
        let positive = values.filter { $0 >= 1 && $0 < 0x1p40 }
        guard let low = positive.min(), let high = positive.max() else { return [] }
        let first = Int(log2(low).rounded(.down)), last = Int(log2(high).rounded(.down))
        var counts = [Int](repeating: 0, count: last - first + 1)
        for value in positive { counts[min(last, Int(log2(value).rounded(.down))) - first] += 1 }
        return counts.enumerated().map { index, n in
            let lower = 1 << (first + index)
            return ("\(lower)-\(2 * lower)", n)
        }
    }
}
