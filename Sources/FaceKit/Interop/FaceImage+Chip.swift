internal import CFaceKit
import Foundation

extension FaceImage {
    /// An upright square picture of `face` (found in this image): centred on its box, turned by
    /// its roll (``Face/headEulerAngleZ``) so that the eyes are level, `size` pixels wide, the
    /// box's longer side filling 1 / (1 + 2 `padding`) of it; what lies outside the image is
    /// black. For a person's thumbnail (`facekit group --crops`). Runs `fk_image_warp`.
    ///
    /// ```swift
    /// let image = try FaceImage(contentsOfFile: "team.jpg")
    /// let faces = try detector.process(image)
    /// try image.faceChip(of: faces[0]).encoded(fileExtension: "jpg").write(to: url)
    /// ```
    public func faceChip(of face: Face, size: Int = 150, padding: Double = 0.25) throws(FaceKitError) -> FaceImage {
        guard (1...4096).contains(size) else {
            throw .invalidOption(name: "size", reason: "\(size) is not in 1 ... 4096 pixels")
        }
        guard padding >= 0, padding.isFinite else {
            throw .invalidOption(name: "padding", reason: "must be a non-negative fraction, not \(padding)")
        }
        let box = face.frame
        // The face's coordinates are the full-size image's; this one may be decoded reduced.
        let scale = 1 / Double(reduction)
        let side = Double(max(box.width, box.height)) * (1 + 2 * padding) * scale
        let (centreX, centreY) = (Double(box.midX) * scale, Double(box.midY) * scale)
        let roll = face.headEulerAngleZ * .pi / 180
        // Chip pixel (x, y) is at (u, v) = ((x + 0.5) / size - 0.5, ...) of the side; positive roll
        // turns the face counter-clockwise on screen, so its axes are the chip's turned as much.
        let (c, s) = (cos(roll), sin(roll))
        let step = side / Double(size)
        let offset = side * (0.5 / Double(size) - 0.5)
        let affine: [Float] = [
            Float(step * c), Float(step * s), Float(centreX + offset * (c + s)),
            Float(-step * s), Float(step * c), Float(centreY + offset * (c - s)),
        ]
        var pointer: OpaquePointer?
        try callNative(subject: "face chip") {
            fk_image_warp(handle.pointer, affine, Int32(size), Int32(size), 0, &pointer, $0)
        }
        return try FaceImage(taking: pointer!, subject: "face chip")
    }

    /// A `width` x `height` image whose pixel (x, y) takes this image's colour at
    /// (a[0] x + a[1] y + a[2], a[3] x + a[4] y + a[5]) (pixels of this image as decoded);
    /// the grey level `border` outside it (black by default). Runs `fk_image_warp`.
    package func warped(affine: [Double], width: Int, height: Int, border: UInt8 = 0) throws(FaceKitError) -> FaceImage {
        precondition(affine.count == 6, "warped: an affine map has 6 entries")
        var pointer: OpaquePointer?
        let map = affine.map { Float($0) }
        try callNative(subject: "image") {
            fk_image_warp(handle.pointer, map, Int32(width), Int32(height), Int32(border), &pointer, $0)
        }
        return try FaceImage(taking: pointer!, subject: "image")
    }
}
