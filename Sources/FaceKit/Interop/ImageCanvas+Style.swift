internal import CFaceKit
import Foundation

extension ImageCanvas {
    /// An opaque 8-bit RGB colour.
    ///
    /// ```swift
    /// ImageCanvas.Color(red: 255, green: 214, blue: 0)   // a bright yellow
    /// ```
    package struct Color: Sendable, Equatable, Hashable {
        package var red: UInt8
        package var green: UInt8
        package var blue: UInt8

        package init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        package static let black = Color(red: 0, green: 0, blue: 0)
        package static let white = Color(red: 255, green: 255, blue: 255)

        var native: fk_color { fk_color(red: red, green: green, blue: blue) }
    }

    /// How a line, circle or text is drawn: `width` pixels of `color` (rounded to whole pixels,
    /// at least 1) over an outline reaching `outlineWidth` pixels beyond it on each side.
    ///
    /// A bright line over a dark outline reads on light and dark pictures alike.
    ///
    /// ```swift
    /// ImageCanvas.Stroke(color: .white, width: 2, outlineWidth: 1)   // 2 px white on 4 px black
    /// ```
    package struct Stroke: Sendable, Equatable {
        package var color: Color
        package var width: Double
        package var outlineColor: Color
        /// 0: no outline.
        package var outlineWidth: Double

        package init(color: Color, width: Double, outlineColor: Color = .black, outlineWidth: Double = 0) {
            self.color = color
            self.width = width
            self.outlineColor = outlineColor
            self.outlineWidth = outlineWidth
        }

        var native: fk_stroke {
            fk_stroke(
                color: color.native, width: Float(width), outline_color: outlineColor.native,
                outline_width: Float(outlineWidth))
        }
    }

    /// The size of a line of text, in pixels: `ascent` above the baseline, `descent` below.
    package struct TextExtent: Sendable, Equatable {
        package var width: Double
        package var ascent: Double
        package var descent: Double
    }
}
