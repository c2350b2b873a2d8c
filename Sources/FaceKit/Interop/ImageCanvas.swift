internal import CFaceKit
import Foundation

/// A private copy of a ``FaceImage`` to draw on: lines, circles, filled rectangles and text
/// (`fk_canvas`).
///
/// The canvas only puts primitives down, antialiased, in the image's pixel coordinates (origin
/// top-left, y down); what to draw and in which colour is the caller's policy. Shapes that fall
/// partly or wholly outside the image are clipped. The image it was made from never changes;
/// ``image()`` returns what has been drawn so far. Not thread-safe: draw from one thread.
///
/// ```swift
/// let canvas = try ImageCanvas(image: try FaceImage(contentsOfFile: "group.jpg"))
/// let yellow = ImageCanvas.Stroke(color: .init(red: 255, green: 214, blue: 0), width: 3, outlineWidth: 1)
/// try canvas.drawRectangle(CGRect(x: 180, y: 78, width: 92, height: 92), stroke: yellow)
/// try canvas.image().encoded(fileExtension: "png").write(to: URL(fileURLWithPath: "boxes.png"))
/// ```
package final class ImageCanvas {
    package let width: Int
    package let height: Int
    private let pointer: OpaquePointer

    /// Copies `image` into a new canvas; runs `fk_canvas_create`.
    package init(image: FaceImage) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: "canvas") { fk_canvas_create(image.handle.pointer, &created, $0) }
        pointer = created!
        width = image.width
        height = image.height
    }

    deinit { fk_canvas_free(pointer) }

    /// Draws straight segments through `points` (at least 2), and back to the first when
    /// `closed`; runs `fk_canvas_draw_polyline`.
    package func drawPolyline(_ points: [CGPoint], closed: Bool = false, stroke: Stroke) throws(FaceKitError) {
        precondition(points.count >= 2, "ImageCanvas.drawPolyline needs at least 2 points, got \(points.count)")
        let native = points.map { fk_point(x: Float($0.x), y: Float($0.y)) }
        try callNative(subject: "canvas") {
            fk_canvas_draw_polyline(pointer, native, Int32(native.count), closed ? 1 : 0, stroke.native, $0)
        }
    }

    /// Draws one straight segment.
    package func drawLine(from start: CGPoint, to end: CGPoint, stroke: Stroke) throws(FaceKitError) {
        try drawPolyline([start, end], stroke: stroke)
    }

    /// Draws the outline of `rectangle`, centred on its edges.
    package func drawRectangle(_ rectangle: CGRect, stroke: Stroke) throws(FaceKitError) {
        let corners = [
            CGPoint(x: rectangle.minX, y: rectangle.minY), CGPoint(x: rectangle.maxX, y: rectangle.minY),
            CGPoint(x: rectangle.maxX, y: rectangle.maxY), CGPoint(x: rectangle.minX, y: rectangle.maxY),
        ]
        try drawPolyline(corners, closed: true, stroke: stroke)
    }

    /// Draws a ring of `stroke.width` around `center`, or a disc in `stroke.color` ringed by the
    /// outline when `filled`; runs `fk_canvas_draw_circle`.
    package func drawCircle(center: CGPoint, radius: Double, filled: Bool, stroke: Stroke) throws(FaceKitError) {
        try callNative(subject: "canvas") {
            fk_canvas_draw_circle(
                pointer, fk_point(x: Float(center.x), y: Float(center.y)), Float(radius), filled ? 1 : 0,
                stroke.native, $0)
        }
    }

    /// Fills the pixels whose centres lie inside `rectangle` with `color`; runs `fk_canvas_fill_rect`.
    package func fill(_ rectangle: CGRect, color: Color) throws(FaceKitError) {
        try callNative(subject: "canvas") { fk_canvas_fill_rect(pointer, fk_rect(rectangle), color.native, $0) }
    }

    /// Draws one line of ASCII text with its baseline starting at `origin`, capital letters
    /// `height` pixels tall (other characters come out as `?`); runs `fk_canvas_draw_text`.
    package func drawText(_ text: String, at origin: CGPoint, height: Double, stroke: Stroke) throws(FaceKitError) {
        try callNative(subject: "canvas") {
            fk_canvas_draw_text(
                pointer, text, fk_point(x: Float(origin.x), y: Float(origin.y)), Float(height), stroke.native, $0)
        }
    }

    /// The size of `text` as ``drawText(_:at:height:stroke:)`` draws it; runs `fk_text_measure`.
    package static func measure(_ text: String, height: Double, stroke: Stroke) throws(FaceKitError) -> TextExtent {
        var extent = fk_text_extent()
        try callNative(subject: "canvas") { fk_text_measure(text, Float(height), stroke.native, &extent, $0) }
        return TextExtent(width: Double(extent.width), ascent: Double(extent.ascent), descent: Double(extent.descent))
    }

    /// What has been drawn so far, as a new image; runs `fk_canvas_copy_image`.
    package func image() throws(FaceKitError) -> FaceImage {
        var copy: OpaquePointer?
        try callNative(subject: "canvas") { fk_canvas_copy_image(pointer, &copy, $0) }
        return try FaceImage(taking: copy!, subject: "canvas")
    }
}
