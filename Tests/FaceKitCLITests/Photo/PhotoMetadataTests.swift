import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// What `analyze` says of a photo besides its faces (``PhotoMetadata``, ``ExifFields``): the
/// capture time, EXIF DateTimeOriginal as ISO 8601, and the upright size, on real photos.
@Suite("photo metadata")
struct PhotoMetadataTests {
    @Test(
        "a phone's or camera's JPEG gives its DateTimeOriginal (not its later DateTime) and its size",
        .needsSharedData,
        arguments: [
            ("photos/face_recognition/obama.jpg", "2012-12-06T15:46:01.00", 910, 1137),
            ("photos/identities/test/alex_lacamoire1.jpg", "2016-05-04T11:49:48", 1548, 1024),
            ("photos/compreface/001_A.jpg", nil, 4912, 7360),
        ] as [(String, String?, Int, Int)])
    func realPhotos(path: String, captureTime: String?, width: Int, height: Int) {
        let metadata = PhotoMetadata.read(TestData.shared(path))
        #expect(metadata == PhotoMetadata(captureTime: captureTime, uprightWidth: width, uprightHeight: height))
    }

    @Test("EXIF orientation 6 turns the stored 512 x 400 upright, 400 x 512")
    func orientation() {
        let metadata = PhotoMetadata.read(TestData.fixture("astronaut-portrait-exif6.jpg"))
        #expect(metadata.uprightWidth == 400 && metadata.uprightHeight == 512)
        #expect(metadata.captureTime == nil)
    }

    @Test("a PNG, a missing file and a JPEG cut inside its EXIF block give what could be read, without failing")
    func nothingToRead() throws {
        #expect(PhotoMetadata.read(TestData.fixture("astronaut.png")) == PhotoMetadata())
        #expect(PhotoMetadata.read("/nonexistent/x.jpg") == PhotoMetadata())
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut-portrait-exif6.jpg"))))
        for cut in [3, 20, 200] {
            let bytes = Array(whole.prefix(cut))
            let metadata = PhotoMetadata.jpeg { offset, count in
                offset >= bytes.count ? [] : Array(bytes[offset..<min(bytes.count, offset + count)])
            }
            #expect(metadata.uprightWidth == nil && metadata.captureTime == nil, "cut at \(cut)")
        }
    }

    @Test(
        "DateTimeOriginal is written as ISO 8601 with its fraction and offset, and a blank or zero date is none",
        arguments: [
            ("2012:12:06 15:46:01", nil, nil, "2012-12-06T15:46:01"),
            ("2012:12:06 15:46:01", "25", "+01:00", "2012-12-06T15:46:01.25+01:00"),
            ("2012:12:06 15:46:01", " 7 ", "-08:00 ", "2012-12-06T15:46:01.7-08:00"),
            ("2012:12:06 15:46:01", "ab", "01:00", "2012-12-06T15:46:01"),
            ("0000:00:00 00:00:00", nil, nil, nil),
            ("    :  :     :  :  ", nil, nil, nil),
            ("2012:13:06 15:46:01", nil, nil, nil),
            ("2012-12-06 15:46:01", nil, nil, nil),
            ("2012:12:06", nil, nil, nil),
        ] as [(String, String?, String?, String?)])
    func isoTime(date: String, subseconds: String?, offset: String?, expected: String?) {
        #expect(ExifFields.isoTime(date: date, subseconds: subseconds, offset: offset) == expected)
    }

    @Test("analyze writes the upright size and capture time in every row of a photo", .needsModels, .needsSharedData)
    func analyzeColumns() throws {
        let obama = TestData.shared("photos/face_recognition/obama.jpg")
        let turned = TestData.fixture("astronaut-portrait-exif6.jpg")
        // 4912 px wide: decoded at half size for the search; the size written is still the file's.
        let large = TestData.shared("photos/compreface/001_A.jpg")
        try TestSupport.withTemporaryFolder { folder in
            // Odd sides, which a reduced decode rounds up (4101 / 2 is 2051, times 2 is 4102).
            let odd = folder + "/odd.jpg"
            try TestSupport.ffmpeg(["-i", TestData.fixture("astronaut-3072x1536.jpg"), "-vf", "scale=4101:2051", odd])
            let run = TestSupport.analyze([obama, turned, large, odd])
            #expect(run.status == 0, "\(run.stderr)")
            let rows = run.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            #expect(
                Array(NSOrderedSet(array: rows.map { Array($0[22...24]).map(String.init) })) as? [[String]] == [
                    ["910", "1137", "2012-12-06T15:46:01.00"], ["400", "512", ""], ["4912", "7360", ""],
                    ["4101", "2051", ""],
                ])
        }
    }
}
