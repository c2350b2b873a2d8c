import FaceKit
import Foundation

/// The colours and sizes `facekit annotate` draws with, scaled to the image.
///
/// Lines are bright over a black outline, and text sits on a filled background, so that marks
/// read on light and dark photos alike. Sizes grow with the image's shorter side (a 360 px
/// video frame gets 2 px boxes, a 3000 px photo about 17 px) but a face's lines never exceed a
/// fifteenth of its width, so small faces in large photos stay visible under their marks. Each
/// face gets a colour of its own from ``palette``: by tracking ID in video, by index in photos.
///
/// ```swift
/// let style = AnnotationStyle(imageWidth: 640, imageHeight: 360)
/// style.lineWidth(forFaceWidth: 92)   // 2
/// style.textHeight                    // 10: 9 ... 10 px by face size
/// ```
struct AnnotationStyle {
    /// Bright colours that stay distinct from each other and from skin, each readable over a
    /// black outline: yellow, cyan, magenta, lime, orange, azure, pink, mint.
    static let palette: [ImageCanvas.Color] = [
        .init(red: 255, green: 214, blue: 0), .init(red: 0, green: 215, blue: 255),
        .init(red: 255, green: 80, blue: 200), .init(red: 140, green: 255, blue: 60),
        .init(red: 255, green: 140, blue: 20), .init(red: 90, green: 160, blue: 255),
        .init(red: 255, green: 130, blue: 150), .init(red: 80, green: 255, blue: 190),
    ]

    /// The pose axes: the face's right (red), up (green) and forward (blue) directions.
    static let axisColors = (
        right: ImageCanvas.Color(red: 255, green: 70, blue: 70),
        up: ImageCanvas.Color(red: 70, green: 235, blue: 70),
        forward: ImageCanvas.Color(red: 80, green: 150, blue: 255)
    )
    static let labelBackground = ImageCanvas.Color(red: 24, green: 24, blue: 24)

    /// Pixels per unit of line width: the image's shorter side over 360, at least 1.
    let unit: Double
    /// Height of capital letters in labels next to large faces, in pixels.
    let textHeight: Double
    /// Height of capital letters in labels next to the smallest faces, in pixels.
    let minimumTextHeight: Double

    init(imageWidth: Int, imageHeight: Int) {
        let shorter = Double(min(imageWidth, imageHeight))
        unit = max(1, shorter / 360)
        textHeight = max(10, shorter / 40)
        minimumTextHeight = 9
    }

    /// Labels of one letter height next to every face, small or large: for a picture shown
    /// smaller than annotate's own output (the report's contact sheet), whose labels must stay
    /// readable.
    init(imageWidth: Int, imageHeight: Int, fixedTextHeight: Double) {
        unit = max(1, Double(min(imageWidth, imageHeight)) / 360)
        textHeight = fixedTextHeight
        minimumTextHeight = fixedTextHeight
    }

    /// The colour of the face with this tracking ID, or of the `index`th face of a photo.
    static func color(forFace index: Int) -> ImageCanvas.Color {
        palette[((index % palette.count) + palette.count) % palette.count]
    }

    /// The width of a face's box and axes: 2 units, at most a fifteenth of the face's width, at
    /// least 1.5 px.
    func lineWidth(forFaceWidth faceWidth: Double) -> Double {
        max(1.5, min(2 * unit, faceWidth / 15))
    }

    /// A line of `width` in `color` over a black outline half as wide on each side.
    func stroke(_ color: ImageCanvas.Color, width: Double) -> ImageCanvas.Stroke {
        ImageCanvas.Stroke(color: color, width: width, outlineColor: .black, outlineWidth: max(0.5, width / 2))
    }

    /// The height of capital letters in a face's labels: ``textHeight``, but at most a sixth of
    /// the face's width (so that a crowd's labels do not bury it), and never below
    /// ``minimumTextHeight`` (9 px).
    func textHeight(forFaceWidth faceWidth: Double) -> Double {
        max(minimumTextHeight, min(textHeight, faceWidth / 6))
    }

    /// Text strokes: white, a tenth of the letter height, without outline (labels have a
    /// filled background).
    func textStroke(forFaceWidth faceWidth: Double) -> ImageCanvas.Stroke {
        ImageCanvas.Stroke(color: .white, width: max(1, textHeight(forFaceWidth: faceWidth) / 10))
    }
}
