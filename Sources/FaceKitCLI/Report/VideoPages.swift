/// `videos.html`, the list of videos with who is on screen when and each track's best face and
/// person (linked to the person's page), and
/// `videos/video-N.html`, one page per video: the tracks' presence (a lane each, over the whole
/// video), one timeline per track over its own span (smile, eyes open with blinks, head yaw)
/// under its best face, ID and name, and a contact sheet of annotated frames. Every picture
/// links to its full frame; every time is the video's.
struct VideoPages {
    let collection: ReportCollection
    let layout: ReportLayout
    let written: Set<String>
    let page: ReportPage

    func listHTML() -> String {
        var body = ""
        for (index, video) in collection.videos.enumerated() {
            body += "<h2><a href=\"videos/video-\(index).html\">\(HTMLText.path(video.source))</a></h2>\n"
            body += "<p class=\"muted\">\(video.tracks.count) tracks · \(HTMLText.time(milliseconds: video.durationMs))</p>\n"
            body += "<div class=\"plot\">" + VideoTimeline(video: video).presence(page: "videos/video-\(index).html") + "</div>\n"
            body += trackTable(index, depth: 0)
        }
        return page.document(title: "Videos", section: .videos, body: body)
    }

    /// The tracks of a video, a row each: best face, ID (linked to its timeline), name, when.
    private func trackTable(_ index: Int, depth: Int) -> String {
        let video = collection.videos[index]
        let page = depth == 0 ? "videos/video-\(index).html" : ""
        var html = "<table class=\"tracks\">\n<tr><th>face</th><th>track</th><th>name</th><th>on screen</th></tr>\n"
        for (number, track) in video.tracks.enumerated() {
            html += "<tr id=\"\(depth == 0 ? "video-\(index)-" : "")row-\(track.id)\"><td class=\"face\">"
            html += ReportPage.linkedImage(bestFace(index, number), depth: depth, alt: "ID \(track.id)", written: written)
            html += "</td><td><a href=\"\(page)#track-\(track.id)\">ID \(track.id)</a></td>"
            html += "<td>\(person(of: track, in: video, depth: depth))</td>"
            html += "<td class=\"when\">\(HTMLText.time(milliseconds: track.firstMs))-\(HTMLText.time(milliseconds: track.lastMs))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// Who a track is: its `--known` name, else the title of the person it is in (`Person 3`),
    /// linked to that person's page; `-` for neither.
    private func person(of track: VideoTracks.Track, in video: VideoTracks, depth: Int) -> String {
        let index = collection.personOf[ReportCollection.key(video: video.source, track: track.id)]
        guard let title = track.person ?? index.map({ collection.people![$0].title }) else {
            return "<span class=\"muted\">-</span>"
        }
        guard let index else { return HTMLText.escaped(title) }
        return "<a href=\"\(String(repeating: "../", count: depth))people/person-\(index).html\">\(HTMLText.escaped(title))</a>"
    }

    private func bestFace(_ video: Int, _ track: Int) -> ReportLayout.Shown? {
        track < layout.trackBest[video].count ? layout.trackBest[video][track] : nil
    }

    func videoHTML(_ index: Int) -> String {
        let video = collection.videos[index]
        let timeline = VideoTimeline(video: video)
        var body = "<ul class=\"stats\">\n"
        body += "<li><b>\(video.tracks.count)</b><span>tracks</span></li>\n"
        body += "<li><b>\(video.framesWithFaces.count)</b><span>frames with faces</span></li>\n"
        body += "<li><b>\(HTMLText.time(milliseconds: video.durationMs))</b><span>analysed</span></li>\n"
        body += "</ul>\n<h2>On screen</h2>\n<div class=\"plot\">" + timeline.presence() + "</div>\n"
        body += "<h2>Tracks</h2>\n" + trackTable(index, depth: 1)
        for (number, track) in video.tracks.enumerated() {
            let seen = video.segments(of: track).reduce(0) { $0 + $1.endMs - $1.startMs }
            body += "<section class=\"track\" id=\"track-\(track.id)\">\n<div class=\"track-head\">"
            body += ReportPage.linkedImage(bestFace(index, number), depth: 1, alt: "best face of ID \(track.id)", written: written)
            body += "<h3><span class=\"swatch\" style=\"background:\(VideoTimeline.color(forTrack: track.id))\"></span> "
            body += "ID \(track.id)"
            if let person = track.person { body += " · " + HTMLText.escaped(person) }
            body += "</h3></div>\n<p class=\"muted\">on screen \(HTMLText.time(milliseconds: seen)) between "
            body += "\(HTMLText.time(milliseconds: track.firstMs)) and \(HTMLText.time(milliseconds: track.lastMs))"
            body += " · \(track.faces.count) frames"
            if let smile = track.meanSmile { body += " · mean smile \(HTMLText.percent(smile))" }
            let classified = track.faces.contains(where: \.classified)
            if classified || track.summaryBlinks != nil {
                let blinks = track.summaryBlinks ?? track.blinkTimesMs.count
                body += " · \(blinks) blink" + (blinks == 1 ? "" : "s")
            }
            body += "</p>\n<div class=\"plot\">" + timeline.track(track) + "</div>\n</section>\n"
        }
        let sheet = layout.sheets[index]
        if !sheet.isEmpty {
            body += "<h2>Contact sheet</h2>\n<div class=\"sheet\">\n"
            for frame in sheet {
                body += "<figure>" + ReportPage.linkedImage(
                    frame.shown, depth: 1, alt: "frame \(frame.frame)", written: written)
                body += "<figcaption>\(HTMLText.time(milliseconds: frame.timeMs)) · frame \(frame.frame)"
                body += " · \(frame.faces.count) face" + (frame.faces.count == 1 ? "" : "s") + "</figcaption></figure>\n"
            }
            body += "</div>\n"
        }
        return page.document(
            title: video.source, heading: HTMLText.path(video.source), section: .videos, depth: 1, body: body)
    }
}
