import Foundation

/// The timelines of a video page, drawn from ``VideoTracks``: who is on screen when (one lane per
/// track), and for each track its smile probability, mean eye-open probability with blinks
/// marked, and head yaw over the track's own span. Lines break where the face was not seen.
///
/// Labels and time ticks are HTML text and the lanes and plot areas stretch to the page's width,
/// so that at a phone's width everything fits without scrolling sideways and text stays at its
/// CSS size (an SVG with text would shrink it with the picture). Times are the video's, `m:ss.s`.
struct VideoTimeline {
    let video: VideoTracks

    /// The width of the plot areas in SVG units (stretched to the page's width, strokes not).
    static let areaWidth = 1000.0
    /// The height of a plot panel in SVG units: a probability of 1 at 4, of 0 at 96.
    static let areaHeight = 100.0
    /// The most time ticks an axis gets: six `0:00.0` labels fit a phone's 340 px.
    static let maximumTicks = 6

    /// A track's name in its lane: `ID 3`, or `ID 3 · Eileen Collins` when the track's person is known.
    static func fullLabel(_ track: VideoTracks.Track) -> String {
        "ID \(track.id)" + (track.person.map { " · " + $0 } ?? "")
    }

    /// The CSS colour of a track, matching the colour of its box in the contact sheet.
    static func color(forTrack id: Int) -> String {
        let c = AnnotationStyle.color(forFace: max(0, id))
        return "rgb(\(c.red),\(c.green),\(c.blue))"
    }

    /// Who is on screen when: one lane per track, its label linking to the track's timeline on
    /// `page` (`""` for the page itself), over the whole video.
    func presence(page: String = "") -> String {
        let start = 0.0, end = max(1, video.durationMs)
        var html = "<div class=\"lanes\" role=\"group\" aria-label=\"Tracks on screen over time\" "
        html += "style=\"--label:\(labelWidth)px\">\n"
        for track in video.tracks {
            let label = HTMLText.escaped(Self.fullLabel(track))
            html += "<div class=\"lane\" data-track=\"\(track.id)\">"
            html += "<a class=\"lane-label\" href=\"\(page)#track-\(track.id)\" title=\"\(label)\">\(label)</a>"
            html += "<div class=\"lane-bar\">"
            for segment in video.segments(of: track) {
                let left = Self.percent(segment.startMs, from: start, to: end)
                let width = Self.percent(segment.endMs, from: start, to: end) - left
                html += "<span class=\"segment\" style=\"left:\(HTMLText.number(left, digits: 2))%;"
                html += "width:\(HTMLText.number(width, digits: 2))%;background:\(Self.color(forTrack: track.id))\" "
                html += "title=\"\(label): \(HTMLText.time(milliseconds: segment.startMs))-"
                html += "\(HTMLText.time(milliseconds: segment.endMs))\"></span>"
            }
            html += "</div></div>\n"
        }
        return html + axis(from: start, to: end) + "</div>"
    }

    /// The width of the lanes' label column beside them, in CSS px: room for the longest label
    /// at about 7.5 px a character of 13 px text, from 80 to 260 px (a longer one ends in `…`;
    /// its `title` is whole). At a phone's width the labels go above their lanes instead.
    var labelWidth: Int {
        let longest = video.tracks.map { Self.fullLabel($0).count }.max() ?? 0
        return min(260, max(80, Int((7.5 * Double(longest)).rounded(.up)) + 6))
    }

    /// The span a track's plot shows: from its first sample to the end of its last.
    func span(of track: VideoTracks.Track) -> (startMs: Double, endMs: Double) {
        (track.firstMs, max(track.lastMs + video.stepMs, track.firstMs + 1))
    }

    /// One track's smile, eyes (with blinks) and yaw, in three stacked panels over its own span.
    func track(_ track: VideoTracks.Track) -> String {
        let (start, end) = span(of: track)
        var html = "<div class=\"track-plot\" role=\"group\" aria-label=\"\(HTMLText.escaped(Self.fullLabel(track))) over time\" "
        html += "data-start-ms=\"\(HTMLText.number(start))\" data-end-ms=\"\(HTMLText.number(end))\">\n"
        let panels: [(name: String, css: String, low: Double, high: Double, value: (ReportFace) -> Double?)] = [
            ("smile", "smile", 0, 1, { $0.smiling }),
            ("eyes open", "eyes", 0, 1, { $0.meanEyeOpen }),
            ("yaw °", "yaw", -90, 90, { $0.headEulerY }),
        ]
        func x(_ ms: Double) -> Double { Self.areaWidth * Self.percent(ms, from: start, to: end) / 100 }
        for spec in panels {
            // 4 units of margin above and below, so that a line at 0 or 1 is not cut by the edge.
            func y(_ value: Double) -> Double {
                4 + (Self.areaHeight - 8) * (1 - (min(spec.high, max(spec.low, value)) - spec.low) / (spec.high - spec.low))
            }
            let range = spec.css == "yaw" ? "-90 to 90" : "0 to 1"
            let drawn = track.faces.contains { spec.value($0) != nil && $0.timestampMs != nil }
            html += "<div class=\"panel-row\"><span class=\"panel-label\">\(spec.name) "
            html += drawn ? "<span class=\"muted\">\(range)</span></span>" : "<span class=\"none\">not in the table</span></span>"
            html += "<svg class=\"panel \(spec.css)\" viewBox=\"0 0 \(Int(Self.areaWidth)) \(Int(Self.areaHeight))\" "
            html += "preserveAspectRatio=\"none\" aria-hidden=\"true\">"
            let middle = y(spec.css == "yaw" ? 0 : 0.5)
            html += "<line class=\"half\" x1=\"0\" x2=\"\(Int(Self.areaWidth))\" y1=\"\(n(middle))\" y2=\"\(n(middle))\"/>"
            var d = ""
            var previousMs: Double?
            for face in track.faces {
                guard let value = spec.value(face), let time = face.timestampMs else {
                    previousMs = nil
                    continue
                }
                let joined = previousMs.map { time - $0 <= video.gapMs } ?? false
                // A sample alone is drawn as a dash as wide as one frame, so that it shows.
                d += (joined ? "L" : "M") + "\(n(x(time))) \(n(y(value)))"
                if !joined { d += "H\(n(x(time + video.stepMs / 2)))" }
                previousMs = time
            }
            if !d.isEmpty { html += "<path class=\"series \(spec.css)\" d=\"\(d)\"/>" }
            if spec.css == "eyes" {
                for blink in track.blinkTimesMs {
                    html += "<line class=\"blink\" x1=\"\(n(x(blink)))\" x2=\"\(n(x(blink)))\" y1=\"0\" "
                    html += "y2=\"\(Int(Self.areaHeight))\"><title>blink at \(HTMLText.time(milliseconds: blink))</title></line>"
                }
            }
            html += "</svg></div>\n"
        }
        return html + axis(from: start, to: end) + "</div>"
    }

    /// The time axis under lanes or panels: ticks at round times of the video, labelled `m:ss.s`.
    private func axis(from start: Double, to end: Double) -> String {
        var html = "<div class=\"time-axis\" aria-label=\"time in the video, m:ss.s\">"
        for tick in Self.ticks(from: start, to: end, maximum: Self.maximumTicks) {
            let at = Self.percent(tick, from: start, to: end)
            // The first and last labels stay inside the axis rather than stick out of the page.
            let align = at < 8 ? "start" : at > 92 ? "end" : "middle"
            html += "<span class=\"tick \(align)\" style=\"left:\(HTMLText.number(at, digits: 2))%\" "
            html += "data-ms=\"\(HTMLText.number(tick))\">\(HTMLText.time(milliseconds: tick))</span>"
        }
        return html + "</div>\n"
    }

    /// Round times between `start` and `end` ms (both included), at most `maximum` of them: the
    /// multiples of the smallest step of 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10,
    /// 30 min, 1, 2 h that gives no more (beyond, a step of the span over `maximum`, rounded up
    /// to whole seconds); a span with fewer than two such times gets its two ends.
    static func ticks(from start: Double, to end: Double, maximum: Int) -> [Double] {
        let span = max(1, end - start)
        let steps = [100.0, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
            1_800_000, 3_600_000, 7_200_000]
        let fits = { (step: Double) in Int((end / step).rounded(.down) - (start / step).rounded(.up)) + 1 <= maximum }
        let step = steps.first(where: fits) ?? ((span / Double(maximum)) / 1000).rounded(.up) * 1000
        var ticks: [Double] = []
        var tick = (start / step).rounded(.up) * step
        while tick <= end + 1e-6, ticks.count < maximum {
            ticks.append(tick)
            tick += step
        }
        // A span shorter than two steps (a track of a few frames) is labelled at its two ends.
        return ticks.count >= 2 ? ticks : [start, end]
    }

    /// Where `ms` lies between `start` and `end`, in percent, held to 0-100.
    static func percent(_ ms: Double, from start: Double, to end: Double) -> Double {
        min(100, max(0, 100 * (ms - start) / max(1e-9, end - start)))
    }

    private func n(_ value: Double) -> String { HTMLText.number(value) }
}
