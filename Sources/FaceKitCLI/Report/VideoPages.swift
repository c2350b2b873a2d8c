/// `videos.html`, the list of videos with who is on screen when, and `videos/video-N.html`, one
/// page per video: the tracks' presence, one timeline per track (smile, eyes open with blinks,
/// head yaw), and a contact sheet of annotated frames.
struct VideoPages {
    let collection: ReportCollection
    let layout: ReportLayout
    let written: Set<String>
    let page: ReportPage

    func listHTML() -> String {
        var body = ""
        for (index, video) in collection.videos.enumerated() {
            body += "<h2><a href=\"videos/video-\(index).html\">\(HTMLText.escaped(video.source))</a></h2>\n"
            body += "<p class=\"muted\">\(video.tracks.count) tracks · \(HTMLText.time(milliseconds: video.durationMs))</p>\n"
            body += VideoTimeline(video: video).presence() + "\n"
        }
        return page.document(title: "Videos", section: .videos, body: body)
    }

    func videoHTML(_ index: Int) -> String {
        let video = collection.videos[index]
        let timeline = VideoTimeline(video: video)
        var body = "<ul class=\"stats\">\n"
        body += "<li><b>\(video.tracks.count)</b><span>tracks</span></li>\n"
        body += "<li><b>\(video.framesWithFaces.count)</b><span>frames with faces</span></li>\n"
        body += "<li><b>\(HTMLText.time(milliseconds: video.durationMs))</b><span>analysed</span></li>\n"
        body += "</ul>\n<h2>On screen</h2>\n" + timeline.presence() + "\n"
        for track in video.tracks {
            let seen = video.segments(of: track).reduce(0) { $0 + $1.endMs - $1.startMs }
            body += "<section class=\"track\" id=\"track-\(track.id)\">\n<div class=\"track-head\"><h3>"
            body += "<span class=\"swatch\" style=\"background:\(VideoTimeline.color(forTrack: track.id))\"></span> "
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
            body += "</p>\n" + timeline.track(track) + "\n</section>\n"
        }
        let sheet = layout.sheets[index]
        if !sheet.isEmpty {
            body += "<h2>Contact sheet</h2>\n<div class=\"sheet\">\n"
            for frame in sheet {
                body += "<figure>" + ReportPage.image(
                    frame.picture, depth: 1, alt: "frame \(frame.frame)", written: written)
                body += "<figcaption>\(HTMLText.time(milliseconds: frame.timeMs)) · frame \(frame.frame)"
                body += " · \(frame.faces.count) face" + (frame.faces.count == 1 ? "" : "s") + "</figcaption></figure>\n"
            }
            body += "</div>\n"
        }
        return page.document(title: video.source, section: .videos, depth: 1, body: body)
    }
}
