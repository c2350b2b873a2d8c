import FaceKit
import Foundation
import Synchronization

/// Writes a report's folder: `index.html` and the other pages, `style.css`, `sort.js`, and the
/// pictures in `images/`. Every link is relative and every picture is in the folder, so the site
/// works from the file system, zipped, copied or served by any static web server. Pictures are
/// cut from the sources on `jobs` threads at once.
struct ReportSite {
    let collection: ReportCollection
    let folder: String
    let sheetIntervalSeconds: Double
    let jobs: Int
    /// Where a source named in the tables is found from here.
    let locate: (String) -> String

    /// Writes everything; returns the sources whose pictures could not be cut, with the reason.
    func write() throws(OutputError) -> [ReportCollection.Failure] {
        let site = try OutputFolder(folder)
        let layout = ReportLayout(collection: collection, sheetIntervalSeconds: sheetIntervalSeconds, locate: locate)
        // Only the folders that get files: no empty `videos/` in a report without video pages.
        if !layout.jobs.isEmpty { try site.makeFolder("images") }
        if !collection.videos.isEmpty { try site.makeFolder("videos") }
        if let people = collection.people, !people.isEmpty { try site.makeFolder("people") }
        let failures = Mutex<[Int: String]>([:])
        let folder = self.folder
        let pictureJobs = layout.jobs
        let next = Atomic<Int>(0)
        let threads = max(1, min(jobs, pictureJobs.count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < pictureJobs.count else { return }
                if let failure = pictureJobs[index].write(into: folder) {
                    failures.withLock { $0[index] = failure }
                }
            }
        }
        var written = Set<String>()
        for job in pictureJobs {
            for picture in job.pictures where FileManager.default.fileExists(atPath: folder + "/" + picture.output) {
                written.insert(picture.output)
            }
        }
        let failed = failures.withLock { $0 }.sorted { $0.key < $1.key }.map { index, message in
            ReportCollection.Failure(source: pictureJobs[index].source, reason: message)
        }
        var shown = collection
        shown.failures += failed.map { ReportCollection.Failure(source: $0.source, reason: "not shown: " + Self.stripSource($0)) }
        var sections: [ReportPage.Section] = [.overview]
        if !collection.photos.isEmpty { sections.append(.photos) }
        if collection.people != nil { sections.append(.people) }
        if !collection.videos.isEmpty { sections.append(.videos) }
        let page = ReportPage(sections: sections)

        try Self.write(OverviewPage(collection: shown, page: page).html(), to: folder + "/index.html")
        try Self.write(ReportPage.styleSheet + "\n", to: folder + "/style.css")
        try Self.write(ReportPage.sortScript + "\n", to: folder + "/sort.js")
        if !collection.photos.isEmpty {
            try Self.write(
                PhotosPage(collection: collection, layout: layout, written: written, page: page).html(),
                to: folder + "/photos.html")
        }
        if let people = collection.people {
            let pages = PeoplePages(
                people: people, layout: layout, written: written, page: page, notes: collection.peopleNotes)
            try Self.write(pages.gridHTML(), to: folder + "/people.html")
            for index in people.indices {
                try Self.write(pages.personHTML(index), to: folder + "/people/person-\(index).html")
            }
        }
        if !collection.videos.isEmpty {
            let pages = VideoPages(collection: collection, layout: layout, written: written, page: page)
            try Self.write(pages.listHTML(), to: folder + "/videos.html")
            for index in collection.videos.indices {
                try Self.write(pages.videoHTML(index), to: folder + "/videos/video-\(index).html")
            }
        }
        return failed
    }

    /// The reason of a picture failure without the source name in front, which the table shows.
    private static func stripSource(_ failure: ReportCollection.Failure) -> String {
        let prefix = failure.source + ": "
        return failure.reason.hasPrefix(prefix) ? String(failure.reason.dropFirst(prefix.count)) : failure.reason
    }

    /// Writes one page whole (``OutputFile``); a device, a named pipe or a symbolic link in the
    /// folder is refused.
    static func write(_ text: String, to path: String) throws(OutputError) {
        let output = try OutputFile(path: path, specialFiles: .refused)
        output.write(text)
        try output.commit()
    }
}
