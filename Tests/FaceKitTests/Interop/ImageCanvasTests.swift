import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

@Suite("ImageCanvas")
struct ImageCanvasTests {
    static let grey: UInt8 = 128

    /// A plain grey image.
    static func greyImage(width: Int = 100, height: Int = 80) throws -> FaceImage {
        let bytes = [UInt8](repeating: grey, count: width * height * 3)
        return try bytes.withUnsafeBytes {
            try FaceImage(pixels: $0, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    /// The (x, y) of every pixel whose RGB differs from grey.
    static func changedPixels(_ image: FaceImage) throws -> [(x: Int, y: Int)] {
        let rgb = try image.pixels(format: .rgb8)
        var changed: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = 3 * (y * image.width + x)
                if rgb[i] != grey || rgb[i + 1] != grey || rgb[i + 2] != grey { changed.append((x, y)) }
            }
        }
        return changed
    }

    @Test("a rectangle changes pixels along its edges only, and the source image stays as it was")
    func rectangle() throws {
        let source = try Self.greyImage()
        let canvas = try ImageCanvas(image: source)
        let box = CGRect(x: 20, y: 15, width: 50, height: 40)
        try canvas.drawRectangle(box, stroke: .init(color: .white, width: 2, outlineWidth: 1))
        let changed = try Self.changedPixels(canvas.image())
        #expect(changed.count > 300, "both the line and its outline: \(changed.count)")
        // Line and outline reach 2 px each side of an edge, antialiasing one more.
        let outer = box.insetBy(dx: -3.5, dy: -3.5)
        let inner = box.insetBy(dx: 3.5, dy: 3.5)
        for pixel in changed {
            let point = CGPoint(x: Double(pixel.x), y: Double(pixel.y))
            #expect(outer.contains(point) && !inner.contains(point), "(\(pixel.x), \(pixel.y)) is off the edges")
        }
        let rgb = try canvas.image().pixels(format: .rgb8)
        let onEdge = 3 * (15 * 100 + 45)
        #expect(rgb[onEdge] == 255 && rgb[onEdge + 1] == 255 && rgb[onEdge + 2] == 255, "white on the top edge")
        #expect(try Self.changedPixels(source).isEmpty)
    }

    @Test("a filled rectangle covers exactly the pixels whose centres are inside it, in the colour given")
    func fill() throws {
        let canvas = try ImageCanvas(image: Self.greyImage())
        try canvas.fill(CGRect(x: 2, y: 3, width: 4, height: 5), color: .init(red: 200, green: 10, blue: 30))
        try canvas.fill(CGRect(x: 95, y: 75, width: 50, height: 50), color: .white)  // clipped
        let image = try canvas.image()
        let changed = try Self.changedPixels(image)
        #expect(changed.count == 20 + 25)
        let rgb = try image.pixels(format: .rgb8)
        let i = 3 * (3 * 100 + 2)
        #expect(Array(rgb[i..<i + 3]) == [200, 10, 30])
        #expect(changed.filter { $0.x < 50 }.allSatisfy { (2..<6).contains($0.x) && (3..<8).contains($0.y) })
    }

    @Test("text is drawn inside the extent it is measured at")
    func text() throws {
        let canvas = try ImageCanvas(image: Self.greyImage(width: 300, height: 80))
        let stroke = ImageCanvas.Stroke(color: .white, width: 2, outlineWidth: 1)
        let extent = try ImageCanvas.measure("smile 93%", height: 20, stroke: stroke)
        #expect(extent.width > 100 && extent.width < 200)
        #expect(extent.ascent >= 20 && extent.ascent < 26, "capital letters 20 px tall, plus the stroke: \(extent)")
        try canvas.drawText("smile 93%", at: CGPoint(x: 10, y: 50), height: 20, stroke: stroke)
        let changed = try Self.changedPixels(canvas.image())
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0.x >= 9 && Double($0.x) <= 11 + extent.width })
        #expect(changed.allSatisfy { Double($0.y) >= 49 - extent.ascent && Double($0.y) <= 51 + extent.descent })
        #expect(changed.contains { $0.y < 35 }, "tall letters reach up")
    }

    @Test("filled circles, polylines and shapes off the image draw without failing")
    func shapes() throws {
        let canvas = try ImageCanvas(image: Self.greyImage())
        let stroke = ImageCanvas.Stroke(color: .init(red: 255, green: 214, blue: 0), width: 1.5, outlineWidth: 0.75)
        try canvas.drawCircle(center: CGPoint(x: 50, y: 40), radius: 3, filled: true, stroke: stroke)
        try canvas.drawPolyline(
            [CGPoint(x: 0, y: 0), CGPoint(x: 30.25, y: 10.5), CGPoint(x: 5, y: 70)], stroke: stroke)
        try canvas.drawLine(from: CGPoint(x: -500, y: -500), to: CGPoint(x: -400, y: -450), stroke: stroke)
        try canvas.drawText("café", at: CGPoint(x: 1e7, y: -3), height: 12, stroke: stroke)
        let changed = try Self.changedPixels(canvas.image())
        #expect(changed.contains { $0.x == 50 && $0.y == 40 })
        #expect(!changed.contains { $0.x > 80 })
    }

    @Test("values the shim cannot draw are errors, not crashes")
    func invalidValues() throws {
        let canvas = try ImageCanvas(image: Self.greyImage())
        let stroke = ImageCanvas.Stroke(color: .white, width: 1)
        #expect(throws: FaceKitError.self) {
            try canvas.drawLine(from: CGPoint(x: Double.nan, y: 0), to: CGPoint(x: 1, y: 1), stroke: stroke)
        }
        #expect(throws: FaceKitError.self) {
            try canvas.drawCircle(center: .zero, radius: -1, filled: false, stroke: stroke)
        }
        #expect(throws: FaceKitError.self) {
            try canvas.drawText("x", at: .zero, height: 0, stroke: stroke)
        }
        #expect(throws: FaceKitError.self) {
            try canvas.drawLine(from: .zero, to: CGPoint(x: 1, y: 1), stroke: .init(color: .white, width: .infinity))
        }
    }
}

@Suite("FaceImage output")
struct FaceImageOutputTests {
    @Test("pixels come out in each layout, top row first")
    func pixelLayouts() throws {
        // 2x1: a red pixel, then a blue one.
        let rgb: [UInt8] = [255, 0, 0, 0, 0, 255]
        let image = try rgb.withUnsafeBytes {
            try FaceImage(pixels: $0, width: 2, height: 1, bytesPerRow: 6, format: .rgb8)
        }
        #expect(try image.pixels(format: .rgb8) == rgb)
        #expect(try image.pixels(format: .bgr8) == [0, 0, 255, 255, 0, 0])
        #expect(try image.pixels(format: .rgba8) == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(try image.pixels(format: .bgra8) == [0, 0, 255, 255, 255, 0, 0, 255])
        #expect(try image.pixels(format: .gray8) == [76, 29])
    }

    @Test("PNG and BMP round-trip exactly, JPEG closely; the format follows the extension")
    func encoding() throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let original = try image.pixels()
        for ext in ["png", ".PNG", "bmp", "tiff"] {
            let decoded = try FaceImage(data: image.encoded(fileExtension: ext))
            #expect(try decoded.pixels() == original, "\(ext)")
        }
        let jpeg = try image.encoded(fileExtension: "jpg", quality: 92)
        #expect(jpeg.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        let small = try image.encoded(fileExtension: "jpg", quality: 20)
        #expect(small.count < jpeg.count)
        let decoded = try FaceImage(data: jpeg).pixels()
        let meanError = zip(decoded, original).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / original.count
        #expect(meanError < 4)
        #expect(try image.encoded(fileExtension: "png").prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(try image.encoded(fileExtension: "webp").prefix(4) == Data("RIFF".utf8))
    }

    @Test("an extension with no encoder, or a quality out of range, is an invalid option")
    func refusals() throws {
        let image = try ImageCanvasTests.greyImage()
        #expect {
            try image.encoded(fileExtension: "gif")
        } throws: { error in
            guard case .invalidOption(let name, let reason) = error as? FaceKitError else { return false }
            return name == "fileExtension" && reason.contains("'gif'")
        }
        #expect(throws: FaceKitError.self) { try image.encoded(fileExtension: "jpg", quality: 0) }
    }
}
