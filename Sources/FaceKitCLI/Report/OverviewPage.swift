import Foundation

/// `index.html`: what was analysed, what was found, what failed and why, how faces are spread
/// over the photos and how large they are, and the options of the run.
struct OverviewPage {
    let collection: ReportCollection
    let page: ReportPage

    func html() -> String {
        let c = collection
        var body = "<ul class=\"stats\">\n"
        // "1 video", as the people cards count, never "1 videos".
        func stat(_ value: Int, _ one: String, _ many: String) {
            body += "<li><b>\(value)</b><span>\(value == 1 ? one : many)</span></li>\n"
        }
        if c.knowsFacelessPhotos {
            stat(c.photos.count, "photo analysed", "photos analysed")
        } else {
            stat(c.photos.count, "photo with faces", "photos with faces")
        }
        stat(c.faceCount, "face in photos", "faces in photos")
        stat(c.videoCount, "video", "videos")
        stat(c.trackCount, "track in videos", "tracks in videos")
        if let people = c.people { stat(people.count, "person", "people") }
        stat(c.failures.count, "file failed", "files failed")
        body += "</ul>\n"
        if !c.knowsFacelessPhotos && !c.photos.isEmpty {
            body += "<p class=\"muted\">From tables: a table has rows only for faces, so photos without faces "
            body += "and files that failed during the analysis are not counted.</p>\n"
        }
        var links: [String] = []
        if !c.photos.isEmpty { links.append("<a href=\"photos.html\">" + (c.photos.count == 1 ? "the photo" : "all \(c.photos.count) photos") + "</a>") }
        if let people = c.people { links.append("<a href=\"people.html\">\(people.count) people</a>") }
        if !c.videos.isEmpty {
            links.append("<a href=\"videos.html\">\(c.videos.count) video" + (c.videos.count == 1 ? "" : "s") + "</a>")
        }
        if !links.isEmpty { body += "<p>See " + links.joined(separator: ", ") + ".</p>\n" }

        if !c.photos.isEmpty {
            body += "<h2>Photos</h2>\n<div class=\"charts\">\n"
            let perPhoto = c.photos.map(\.faces.count)
            body += "<figure>" + SVGHistogram(
                title: "Faces per photo", axisLabel: "faces in the photo", bins: SVGHistogram.countBins(perPhoto)
            ).svg() + "<figcaption>Faces per photo</figcaption></figure>\n"
            let widths = c.photos.flatMap { $0.faces.map { Double($0.box.width) } }
            if !widths.isEmpty {
                body += "<figure>" + SVGHistogram(
                    title: "Face sizes", axisLabel: "face box width, pixels", bins: SVGHistogram.doublingBins(widths)
                ).svg() + "<figcaption>Face sizes (box width in pixels)</figcaption></figure>\n"
            }
            body += "</div>\n"
        }
        if c.videoCount > 0 {
            body += "<h2>Videos</h2>\n<table class=\"videos\">\n<tr><th>video</th><th>tracks</th><th>length</th></tr>\n"
            for (index, video) in c.videos.enumerated() {
                body += "<tr><td><a href=\"videos/video-\(index).html\">\(HTMLText.path(video.source))</a></td>"
                body += "<td>\(video.tracks.count)</td><td>\(HTMLText.time(milliseconds: video.durationMs))</td></tr>\n"
            }
            for video in c.groupedVideos {
                body += "<tr><td>\(HTMLText.path(video.source))</td><td>\(video.tracks)</td><td>-</td></tr>\n"
            }
            body += "</table>\n"
            if !c.groupedVideos.isEmpty {
                body += "<p class=\"muted\">From group's faces.csv: a row per track, so these videos have no timelines; "
                body += "give track's table of a video (facekit track --output tracks.csv) for its page.</p>\n"
            }
        }
        body += "<h2>Files that failed</h2>\n"
        if c.failures.isEmpty {
            body += "<p class=\"muted\">None.</p>\n"
        } else {
            body += "<table class=\"failures\">\n<tr><th>file</th><th>why</th></tr>\n"
            for failure in c.failures {
                body += "<tr><td>\(HTMLText.path(failure.source))</td><td>\(HTMLText.escaped(failure.reason))</td></tr>\n"
            }
            body += "</table>\n"
        }
        body += "<h2>Options</h2>\n<table class=\"options\">\n"
        for (name, value) in c.options {
            body += "<tr><th>\(HTMLText.path(name))</th><td>\(HTMLText.path(value))</td></tr>\n"
        }
        body += "</table>\n"
        if !c.tables.isEmpty {
            body += "<h3>Tables read</h3>\n<table>\n"
            for table in c.tables {
                body += "<tr><td><code>\(HTMLText.path(table.path))</code></td><td>\(HTMLText.escaped(table.description))</td></tr>\n"
            }
            body += "</table>\n"
        }
        return page.document(title: "Overview", section: .overview, body: body)
    }
}
