import Foundation

/// Face boxes drawn by people, in dlib's imglab XML format (`testing.xml`, `training.xml`):
/// `<image file='...'><box top='' left='' width='' height=''/>...</image>`.
public struct LabelledBoxes: Sendable {
    public struct Image: Sendable {
        public var file: String
        public var boxes: [CGRect]
    }

    public var images: [Image]

    /// Reads an imglab XML file; image paths are made absolute against the file's folder.
    public init(contentsOf path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let text = try String(contentsOfFile: path, encoding: .isoLatin1)
        var images: [Image] = []
        for line in text.split(separator: "\n") {
            let attributes = Self.attributes(of: line)
            if line.contains("<image "), let file = attributes["file"] {
                images.append(Image(file: folder.appendingPathComponent(file).path, boxes: []))
            } else if line.contains("<box "), !images.isEmpty, line.range(of: "ignore='1'") == nil,
                let top = attributes["top"].flatMap(Double.init), let left = attributes["left"].flatMap(Double.init),
                let width = attributes["width"].flatMap(Double.init), let height = attributes["height"].flatMap(Double.init)
            {
                images[images.count - 1].boxes.append(CGRect(x: left, y: top, width: width, height: height))
            }
        }
        self.images = images
    }

    private static func attributes(of line: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = line[...]
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].split(whereSeparator: { $0 == " " || $0 == "<" }).last.map(String.init) ?? ""
            let afterEquals = rest.index(after: equals)
            guard afterEquals < rest.endIndex else { break }
            let quote = rest[afterEquals]
            let valueStart = rest.index(after: afterEquals)
            guard let valueEnd = rest[valueStart...].firstIndex(of: quote) else { break }
            result[name] = String(rest[valueStart..<valueEnd])
            rest = rest[rest.index(after: valueEnd)...]
        }
        return result
    }
}
