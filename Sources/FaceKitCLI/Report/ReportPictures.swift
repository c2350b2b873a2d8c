import FaceKit
import Foundation

/// The pictures the report cuts from one source file, photo or video: thumbnails with boxes,
/// face crops, and annotated video frames for a contact sheet. Each source is decoded once for
/// all of its pictures (a JPEG at a reduced size when that is enough), a video read once from the
/// start to the last frame needed.
struct ReportPictures: Sendable {
    /// One picture to write, at `output` (a path below the report folder).
    struct Picture: Sendable {
        enum Kind: Sendable {
            /// The whole photo at most `side` px on its longer side, with its faces' boxes, and
            /// with `named` each face's `person` in a tag above its box (a full picture has room
            /// for them; a thumbnail's caption names them instead).
            case thumbnail([ReportFace], side: Int, named: Bool = false)
            /// A square around a face's box, ``cropSide`` px.
            case crop(CGRect)
            /// A video frame with its faces drawn as `facekit annotate` draws them (IDs and
            /// names in their tags), at most `width` px wide. `labelHeight` fixes the tags'
            /// capital letters at that many pixels of the result, so that a small frame's tags
            /// stay readable, and leaves out the smile and eye labels, for which a small frame
            /// has no room (the full frame it links to has them); `nil` draws everything as
            /// annotate does for the whole frame.
            case annotatedFrame([ReportFace], width: Int, labelHeight: Double?)
        }
        var kind: Kind
        /// The video frame it comes from; `nil` for a photo.
        var frame: Int?
        var output: String
    }

    static let thumbnailSide = 360
    static let cropSide = 144
    static let frameWidth = 480
    /// The longer side (a photo) or width (a video frame) of the full pictures thumbnails, crops
    /// and contact-sheet frames link to, at most.
    static let fullSide = 1920
    /// Capital letters of the contact sheet's labels, in pixels of its 480 px frames: shown at
    /// least ``ReportPage/sheetColumnWidth`` CSS px wide, they are 14 x 320 / 480 = 9.3 CSS px
    /// high, the capitals of a 13 px font (capitals are about 0.7 of a font's size).
    static let sheetLabelHeight = 14.0
    static let jpegQuality = 82

    /// The source as the tables name it.
    var source: String
    /// Where it is found from here.
    var path: String
    var isVideo: Bool
    var pictures: [Picture] = []

    /// Writes every picture into `folder`; the message to report when the source cannot be read
    /// (pictures written before a video stopped decoding are kept).
    func write(into folder: String) -> String? {
        do {
            if isVideo { try writeVideoPictures(into: folder) } else { try writePhotoPictures(into: folder) }
            return nil
        } catch {
            return "\(source): \(Self.reason(error))"
        }
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as? FaceKitError)?.description ?? "\(error)"
        return text
    }

    private func writePhotoPictures(into folder: String) throws {
        let width = pictures.map { picture in
            switch picture.kind {
            case .crop: 800
            case .thumbnail(_, let side, _): side
            case .annotatedFrame(_, let width, _): width
            }
        }.max() ?? Self.thumbnailSide
        let image = try FaceImage(contentsOfFile: path, displayWidth: width)
        for picture in pictures { try write(picture, from: image, into: folder) }
    }

    private func writeVideoPictures(into folder: String) throws {
        let video = try VideoReader(contentsOfFile: path)
        var byFrame: [Int: [Picture]] = [:]
        for picture in pictures { byFrame[picture.frame ?? 0, default: []].append(picture) }
        guard let lastNeeded = byFrame.keys.max() else { return }
        while video.lastIndex < lastNeeded {
            let wanted = byFrame[video.lastIndex + 1] != nil
            guard let frame = try video.next(decode: wanted) else { break }
            if let image = frame.image, let chosen = byFrame[frame.index] {
                for picture in chosen { try write(picture, from: image, into: folder) }
            }
        }
    }

    private func write(_ picture: Picture, from image: FaceImage, into folder: String) throws {
        let width = Double(image.fullSizeWidth), height = Double(image.fullSizeHeight)
        let result: FaceImage
        switch picture.kind {
        case .thumbnail(let faces, let side, let named):
            let scale = min(1, Double(side) / max(width, height))
            let size = (w: max(1, Int((width * scale).rounded())), h: max(1, Int((height * scale).rounded())))
            let small = try image.resized(width: size.w, height: size.h)
            let canvas = try ImageCanvas(image: small)
            let scaled = faces.map { face -> Face in
                var copy = face
                copy.box = CGRect(
                    x: face.box.minX * scale, y: face.box.minY * scale, width: face.box.width * scale,
                    height: face.box.height * scale)
                copy.landmarks = []
                copy.trackingID = nil
                return copy.face
            }
            try FaceAnnotation(layers: [.boxes], style: AnnotationStyle(imageWidth: size.w, imageHeight: size.h))
                .draw(scaled, names: named ? faces.map(\.person) : [], on: canvas)
            result = try canvas.image()
        case .crop(let box):
            let region = Self.cropRegion(around: box, imageWidth: width, imageHeight: height)
            let longer = max(region.width, region.height)
            result = try image.resized(
                region: region, width: max(1, Int((Double(Self.cropSide) * region.width / longer).rounded())),
                height: max(1, Int((Double(Self.cropSide) * region.height / longer).rounded())))
        case .annotatedFrame(let faces, let frameWidth, let labelHeight):
            let canvas = try ImageCanvas(image: image)
            let classified = faces.contains(where: \.classified)
            var layers: Set<AnnotationLayer> = [.boxes, .pose, .ids]
            if classified && labelHeight == nil { layers.insert(.labels) }
            if faces.contains(where: { !$0.landmarks.isEmpty }) { layers.insert(.landmarks) }
            let scale = min(1, Double(frameWidth) / width)
            var style = AnnotationStyle(imageWidth: image.width, imageHeight: image.height)
            // Drawn at the frame's size, then scaled: the labels' letters are drawn 1 / scale larger.
            if let labelHeight {
                style = AnnotationStyle(imageWidth: image.width, imageHeight: image.height, fixedTextHeight: labelHeight / scale)
            }
            try FaceAnnotation(layers: layers, style: style).draw(faces.map(\.face), names: faces.map(\.person), on: canvas)
            let drawn = try canvas.image()
            result = try drawn.resized(
                width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
        }
        let data = try result.encoded(fileExtension: "jpg", quality: Self.jpegQuality)
        // Whole or not at all: a full disk leaves no truncated picture for the pages to show.
        let output = try OutputFile(path: folder + "/" + picture.output, specialFiles: .refused)
        output.write(bytes: [UInt8](data)[...])
        try output.commit()
    }

    /// A square 1.5 times the box's larger side around its centre, moved (and if need be shrunk)
    /// to stay inside the image.
    static func cropRegion(around box: CGRect, imageWidth: Double, imageHeight: Double) -> CGRect {
        var side = max(box.width, box.height) * 1.5
        side = max(2, min(side, imageWidth, imageHeight))
        var x = box.midX - side / 2, y = box.midY - side / 2
        x = min(max(0, x), imageWidth - side)
        y = min(max(0, y), imageHeight - side)
        return CGRect(x: x, y: y, width: side, height: side)
    }
}
