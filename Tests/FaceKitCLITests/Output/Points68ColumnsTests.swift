import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `--points68`: dlib's 68 points in `analyze`'s and `track`'s tables, as OpenFace names them in
/// CSV (`x_0` ... `x_67`, `y_0` ... `y_67`) and as a `points68` array in JSON Lines; checked
/// against the points people placed on the Helen photos.
@Suite("--points68", .needsModels, .needsSharedData)
struct Points68ColumnsTests {
    static let helen = TestData.shared("landmarks/helen")

    /// The 68 points of a Helen `.pts` file (one `x y` line each, 1-based), 0-based.
    static func annotation(_ path: String) throws -> [CGPoint] {
        let points = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).compactMap {
            line -> CGPoint? in
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            return numbers.count == 2 ? CGPoint(x: numbers[0] - 1, y: numbers[1] - 1) : nil
        }
        try #require(points.count == 68, "\(path)")
        return points
    }

    @Test("CSV and JSON Lines give the same 68 points, near those people placed")
    func helenPhotos() throws {
        let photos = try FileManager.default.contentsOfDirectory(atPath: Self.helen).filter { $0.hasSuffix(".jpg") }
            .sorted().prefix(4).map { Self.helen + "/" + $0 }
        let csv = TestSupport.analyze(["--points68"] + photos)
        let jsonl = TestSupport.analyze(["--points68", "--format", "jsonl"] + photos)
        #expect(csv.status == 0 && jsonl.status == 0, "\(csv.stderr)")
        let table = try CSVTable(text: csv.stdout)
        let header = table.header
        #expect(header.count == 26 + 136)
        let x0 = try #require(table.column("x_0"))
        let y0 = try #require(table.column("y_0"))
        #expect(y0 == x0 + 68 && header.last == "y_67")
        let rows = table.records
        let objects = try jsonl.stdoutLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == objects.count)
        var errors: [Double] = []
        for (row, object) in zip(rows, objects) {
            let points = try #require(object["points68"] as? [Any])
            #expect(points.count == 68)
            for index in 0..<68 {
                let pair = points[index] as? [Double]
                #expect(
                    Double(row["x_\(index)"] ?? "") == pair?[0] && Double(row["y_\(index)"] ?? "") == pair?[1],
                    "point \(index)")
            }
            // The face people annotated: the one whose box holds their points' centre.
            let truth = try Self.annotation(try #require(row["source"]).replacingOccurrences(of: ".jpg", with: ".pts"))
            let centre = (truth.map(\.x).reduce(0, +) / 68, truth.map(\.y).reduce(0, +) / 68)
            guard let x = Double(row["x"] ?? ""), let y = Double(row["y"] ?? ""), let w = Double(row["width"] ?? ""),
                let h = Double(row["height"] ?? ""),
                (x...x + w).contains(centre.0), (y...y + h).contains(centre.1)
            else { continue }
            let scale = Double(hypot(truth[36].x - truth[45].x, truth[36].y - truth[45].y))
            let found = (0..<68).compactMap { (index: Int) -> Double? in
                guard let point = points[index] as? [Double] else { return nil }
                return hypot(point[0] - truth[index].x, point[1] - truth[index].y) / scale
            }
            errors.append(found.reduce(0, +) / Double(found.count))
        }
        #expect(errors.count == photos.count, "each annotated face found once")
        #expect(errors.allSatisfy { $0 < 0.15 }, "\(errors)")
    }

    @Test("a run with --points68 is not resumed without it: the journal names the option")
    func resumeNamesPoints68() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try PhotoCollectionFixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try PhotoCollectionFixture.analyze(["--points68", "--output", output, photos], stopAfter: 1)
            let run = PhotoCollectionFixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(run.stderr.contains("(interrupted run: --points68; this run: no --points68)"), "\(run.stderr)")
        }
    }
}
