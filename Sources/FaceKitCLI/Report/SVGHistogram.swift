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

    /// Counts `values` in bins of a round width (1, 2, 5, 10, 20, 50 ... ), at most `maxBins`,
    /// labelled by their lower bound; whole numbers from 0 get one bin each when few enough.
    static func bins(_ values: [Double], maxBins: Int = 16) -> [(label: String, count: Int)] {
        guard let low = values.min(), let high = values.max() else { return [] }
        var step = 1.0
        let steps = [1.0, 2.0, 5.0]
        var exponent = 0.0
        search: while true {
            for s in steps {
                step = s * pow(10, exponent)
                if (high - (low / step).rounded(.down) * step) / step < Double(maxBins) { break search }
            }
            exponent += 1
        }
        let start = (low / step).rounded(.down) * step
        let count = Int(((high - start) / step).rounded(.down)) + 1
        var counts = [Int](repeating: 0, count: count)
        for value in values { counts[min(count - 1, Int(((value - start) / step).rounded(.down)))] += 1 }
        return counts.enumerated().map { index, n in
            let lower = start + Double(index) * step
            let label = step == 1 ? HTMLText.number(lower, digits: 0) : "\(HTMLText.number(lower, digits: 0))-"
            return (label, n)
        }
    }
}
