import FaceKit
import Foundation

/// Draws what FaceKit found onto a canvas: the drawing policy of `facekit annotate`.
///
/// For each face, in this order so that the finer marks stay on top: contours (thin lines in
/// the face's colour), the box, the pose axes from the nose (red toward the subject's left,
/// green up, blue toward where the face looks; a frontal face's blue axis is a dot), and the
/// landmarks (white dots). Text comes last, over every face's lines: the tracking ID on a tag in
/// the face's colour, preferably above the box, and the probabilities on a dark label,
/// preferably below it (`smile 93%`, `eyes R 98% L 99%`: the subject's right and left eyes, as
/// in ML Kit, with `-` for an eye that could not be judged). ``LabelPlacement`` moves a label
/// that would leave the image or cover a face or another label.
///
/// ```swift
/// let canvas = try ImageCanvas(image: image)
/// try FaceAnnotation(layers: [.boxes, .pose], style: AnnotationStyle(imageWidth: 640, imageHeight: 360))
///     .draw(faces, on: canvas)
/// ```
struct FaceAnnotation {
    var layers: Set<AnnotationLayer>
    var style: AnnotationStyle

    /// Draws `faces` on `canvas`.
    /// Draws `faces`; `names` (parallel to `faces`, or empty) puts a known person's name in the
    /// face's tag (`--known`).
    func draw(_ faces: [Face], names: [String?] = [], on canvas: ImageCanvas) throws(FaceKitError) {
        for (index, face) in faces.enumerated() {
            try drawMarks(of: face, color: AnnotationStyle.color(forFace: face.trackingID ?? index), on: canvas)
        }
        try drawTexts(of: faces, names: names, on: canvas)
    }

    /// The tag above a face: its ID (with the ids layer and tracking) and its name, when known.
    static func tagText(id: Int?, name: String?) -> String? {
        switch (id, name) {
        case (let id?, let name?): "ID \(id) \(name)"
        case (let id?, nil): "ID \(id)"
        case (nil, let name?): name
        case (nil, nil): nil
        }
    }

    private func drawMarks(of face: Face, color: ImageCanvas.Color, on canvas: ImageCanvas) throws(FaceKitError) {
        let width = style.lineWidth(forFaceWidth: face.frame.width)
        if layers.contains(.contours) {
            let thin = style.stroke(color, width: max(1, width / 2))
            for contour in face.contours {
                if contour.points.count >= 2 {
                    try canvas.drawPolyline(contour.points, closed: Self.isClosed(contour.type), stroke: thin)
                } else if let point = contour.points.first {
                    try canvas.drawCircle(center: point, radius: max(1.5, width * 0.75), filled: true, stroke: thin)
                }
            }
        }
        if layers.contains(.boxes) {
            try canvas.drawRectangle(face.frame, stroke: style.stroke(color, width: width))
        }
        if layers.contains(.pose) {
            try drawPoseAxes(of: face, width: width, on: canvas)
        }
        if layers.contains(.landmarks) {
            let dot = ImageCanvas.Stroke(color: .white, width: 1, outlineWidth: max(0.75, width / 2))
            for landmark in face.landmarks {
                try canvas.drawCircle(
                    center: landmark.position, radius: max(1.5, width * 0.9), filled: true, stroke: dot)
            }
        }
    }

    /// The eyes and the face outline go all the way round; the rest are open curves.
    static func isClosed(_ type: FaceContour.ContourType) -> Bool {
        type == .face || type == .leftEye || type == .rightEye
    }

    /// Where the pose axes start: the nose base when landmarks were computed, else a point on
    /// the box's centre line at the nose's usual height.
    static func poseOrigin(of face: Face) -> CGPoint {
        if let nose = face.landmark(ofType: .noseBase) { return nose.position }
        return CGPoint(x: face.frame.midX, y: face.frame.minY + 0.58 * face.frame.height)
    }

    private func drawPoseAxes(of face: Face, width: Double, on canvas: ImageCanvas) throws(FaceKitError) {
        let axes = HeadPoseAxes(face: face)
        let origin = Self.poseOrigin(of: face)
        let length = 0.5 * face.frame.width
        // Forward last: it is the axis the eye looks for, and often the shortest.
        for (direction, color) in [
            (axes.right, AnnotationStyle.axisColors.right), (axes.up, AnnotationStyle.axisColors.up),
            (axes.forward, AnnotationStyle.axisColors.forward),
        ] {
            let end = CGPoint(x: origin.x + length * direction.x, y: origin.y + length * direction.y)
            if hypot(end.x - origin.x, end.y - origin.y) < 1 { continue }
            try canvas.drawLine(from: origin, to: end, stroke: style.stroke(color, width: width))
        }
    }

    /// The label's lines for a face: its smiling and eye-open probabilities, or nothing when
    /// classification was not requested.
    static func labelLines(for face: Face) -> [String] {
        let requested = Face.Probability.allCases.contains { face.absenceReason($0) != .notRequested }
        guard requested else { return [] }
        func percent(_ kind: Face.Probability) -> String {
            face.probability(kind).map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
        }
        return ["smile \(percent(.smiling))", "eyes R \(percent(.rightEyeOpen)) L \(percent(.leftEyeOpen))"]
    }

    /// Draws every face's ID tag, then every face's label, each where ``LabelPlacement`` finds room.
    private func drawTexts(of faces: [Face], names: [String?], on canvas: ImageCanvas) throws(FaceKitError) {
        let boxes = faces.map { face in
            let width = style.lineWidth(forFaceWidth: face.frame.width)
            return face.frame.insetBy(dx: -width, dy: -width)
        }
        var layout = LabelPlacement(
            image: CGSize(width: Double(canvas.width), height: Double(canvas.height)), faces: boxes)
        for (index, face) in faces.enumerated() {
            let id = layers.contains(.ids) ? face.trackingID : nil
            guard let tag = Self.tagText(id: id, name: index < names.count ? names[index] : nil) else { continue }
            let text = ImageCanvas.Stroke(color: .black, width: style.textStroke(forFaceWidth: face.frame.width).width)
            try drawLabel(
                [tag], face: face, near: boxes[index], preferAbove: true,
                background: AnnotationStyle.color(forFace: face.trackingID ?? index), text: text, layout: &layout,
                on: canvas)
        }
        if layers.contains(.labels) {
            for (index, face) in faces.enumerated() {
                let lines = Self.labelLines(for: face)
                guard !lines.isEmpty else { continue }
                try drawLabel(
                    lines, face: face, near: boxes[index], preferAbove: false,
                    background: AnnotationStyle.labelBackground, text: style.textStroke(forFaceWidth: face.frame.width),
                    layout: &layout, on: canvas)
            }
        }
    }

    /// Draws `lines` on a filled rectangle near `box`, where `layout` puts it.
    private func drawLabel(
        _ lines: [String], face: Face, near box: CGRect, preferAbove: Bool, background: ImageCanvas.Color,
        text: ImageCanvas.Stroke, layout: inout LabelPlacement, on canvas: ImageCanvas
    ) throws(FaceKitError) {
        let height = style.textHeight(forFaceWidth: face.frame.width)
        let extents = try lines.map { line throws(FaceKitError) in
            try ImageCanvas.measure(line, height: height, stroke: text)
        }
        let padding = (height * 0.3).rounded()
        let ascent = extents.map(\.ascent).max() ?? 0
        let lineHeight = (ascent + height * 0.35).rounded(.up)
        let size = CGSize(
            width: (extents.map(\.width).max() ?? 0) + 2 * padding,
            height: lineHeight * Double(lines.count - 1) + ascent + 2 * padding)
        let frame = layout.place(size, near: box, preferAbove: preferAbove)
        try canvas.fill(frame, color: background)
        for (index, line) in lines.enumerated() {
            let baseline = frame.minY + padding + ascent + lineHeight * Double(index)
            try canvas.drawText(line, at: CGPoint(x: frame.minX + padding, y: baseline), height: height, stroke: text)
        }
    }
}
