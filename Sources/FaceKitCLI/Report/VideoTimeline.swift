import Foundation

/// The SVG timelines of a video page, drawn from ``VideoTracks``: who is on screen when (one
/// lane and one `<path class="track">` per track), and for each track its smile probability,
/// mean eye-open probability with blinks marked, and head yaw over time. Lines break where the
/// face was not seen.
struct VideoTimeline {
    let video: VideoTracks

    static let width = 800.0
    static let right = 28.0
    /// The longest lane label shown whole; a longer name ends in `…` (its `<title>` is whole).
    static let longestLabel = 26

    /// Room for the lane labels: 72 units, more for labels with names (about 6.2 units a letter at 11 units).
    var left: Double {
        let longest = video.tracks.map { Self.laneLabel($0).count }.max() ?? 0
        return min(240, max(72, 16 + 6.2 * Double(longest)))
    }
    var plotWidth: Double { Self.width - left - Self.right }

    func x(_ ms: Double) -> Double { left + plotWidth * ms / max(1, video.durationMs) }

    /// A track's name in its lane: `ID 3`, or `ID 3 · Eileen Collins` when the track's person is known.
    static func laneLabel(_ track: VideoTracks.Track) -> String {
        let whole = fullLabel(track)
        return whole.count <= longestLabel ? whole : String(whole.prefix(longestLabel - 1)) + "…"
    }

    static func fullLabel(_ track: VideoTracks.Track) -> String {
        "ID \(track.id)" + (track.person.map { " · " + $0 } ?? "")
    }

    /// The CSS colour of a track, matching the colour of its box in the contact sheet.
    static func color(forTrack id: Int) -> String {
        let c = AnnotationStyle.color(forFace: max(0, id))
        return "rgb(\(c.red),\(c.green),\(c.blue))"
    }

    /// Who is on screen when: one lane per track.
    func presence() -> String {
        let lane = 22.0, top = 8.0, axis = 28.0
        let height = top + lane * Double(video.tracks.count) + axis
        var svg = open(class: "timeline presence", height: height, label: "Tracks on screen over time")
        for (row, track) in video.tracks.enumerated() {
            let y = top + lane * (Double(row) + 0.5)
            svg += "<text class=\"lane-label\" x=\"\(n(left - 8))\" y=\"\(n(y + 4))\">"
            svg += "\(HTMLText.escaped(Self.laneLabel(track)))</text>\n"
            var d = ""
            for segment in video.segments(of: track) {
                d += "M\(n(x(segment.startMs))) \(n(y))H\(n(max(x(segment.endMs), x(segment.startMs) + 1)))"
            }
            svg += "<path class=\"track\" data-track=\"\(track.id)\" d=\"\(d)\" stroke=\"\(Self.color(forTrack: track.id))\" "
            svg += "stroke-width=\"\(n(lane * 0.7))\"><title>\(HTMLText.escaped(Self.fullLabel(track)))</title></path>\n"
        }
        svg += timeAxis(y: top + lane * Double(video.tracks.count) + 4)
        return svg + "</svg>"
    }

    /// One track's smile, eyes (with blinks) and yaw, in three stacked panels.
    func track(_ track: VideoTracks.Track) -> String {
        let panel = 70.0, gap = 18.0, top = 8.0, axis = 28.0
        let height = top + 3 * panel + 2 * gap + axis
        var svg = open(class: "timeline track-timeline", height: height, label: Self.fullLabel(track) + " over time")
        let panels: [(name: String, css: String, low: Double, high: Double, value: (ReportFace) -> Double?)] = [
            ("smile", "smile", 0, 1, { $0.smiling }),
            ("eyes open", "eyes", 0, 1, { $0.meanEyeOpen }),
            ("yaw °", "yaw", -90, 90, { $0.headEulerY }),
        ]
        for (index, spec) in panels.enumerated() {
            let y0 = top + Double(index) * (panel + gap)
            func y(_ value: Double) -> Double {
                y0 + panel * (1 - (min(spec.high, max(spec.low, value)) - spec.low) / (spec.high - spec.low))
            }
            svg += "<rect class=\"panel\" x=\"\(n(left))\" y=\"\(n(y0))\" width=\"\(n(plotWidth))\" height=\"\(panel)\"/>\n"
            svg += "<text class=\"lane-label\" x=\"\(n(left - 8))\" y=\"\(n(y0 + panel / 2 + 4))\">\(spec.name)</text>\n"
            let lowText = spec.css == "yaw" ? "-90" : "0", highText = spec.css == "yaw" ? "90" : "1"
            svg += "<text class=\"tick\" x=\"\(n(left - 3))\" y=\"\(n(y0 + panel))\">\(lowText)</text>"
            svg += "<text class=\"tick\" x=\"\(n(left - 3))\" y=\"\(n(y0 + 9))\">\(highText)</text>\n"
            if spec.css != "yaw" {
                svg += "<line class=\"half\" x1=\"\(n(left))\" x2=\"\(n(left + plotWidth))\" "
                svg += "y1=\"\(n(y(0.5)))\" y2=\"\(n(y(0.5)))\"/>\n"
            } else {
                svg += "<line class=\"half\" x1=\"\(n(left))\" x2=\"\(n(left + plotWidth))\" "
                svg += "y1=\"\(n(y(0)))\" y2=\"\(n(y(0)))\"/>\n"
            }
            var d = ""
            var previousMs: Double?
            for face in track.faces {
                guard let value = spec.value(face), let time = face.timestampMs else {
                    previousMs = nil
                    continue
                }
                let joined = previousMs.map { time - $0 <= video.gapMs } ?? false
                d += (joined ? "L" : "M") + "\(n(x(time))) \(n(y(value)))"
                previousMs = time
            }
            if !d.isEmpty {
                svg += "<path class=\"series \(spec.css)\" d=\"\(d)\"/>\n"
            } else {
                svg += "<text class=\"none\" x=\"\(n(left + plotWidth / 2))\" y=\"\(n(y0 + panel / 2 + 4))\">"
                svg += "not in the table</text>\n"
            }
            if spec.css == "eyes" {
                for blink in track.blinkTimesMs {
                    svg += "<line class=\"blink\" x1=\"\(n(x(blink)))\" x2=\"\(n(x(blink)))\" y1=\"\(n(y0))\" "
                    svg += "y2=\"\(n(y0 + panel))\"><title>blink at \(HTMLText.time(milliseconds: blink))</title></line>\n"
                }
            }
        }
        svg += timeAxis(y: top + 3 * panel + 2 * gap + 4)
        return svg + "</svg>"
    }

    private func open(class name: String, height: Double, label: String) -> String {
        "<svg class=\"\(name)\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" "
            + "role=\"img\" aria-label=\"\(HTMLText.escaped(label))\">\n"
    }

    /// Ticks every round number of seconds, about eight along the axis.
    private func timeAxis(y: Double) -> String {
        let seconds = max(0.001, video.durationMs / 1000)
        // Beyond two hours a tick, a step of an eighth of the whole: never more than 9 ticks.
        let step = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200].first { seconds / $0 <= 8 }
            ?? (seconds / 8).rounded(.up)
        var svg = "<line class=\"axis\" x1=\"\(n(left))\" x2=\"\(n(left + plotWidth))\" y1=\"\(n(y))\" y2=\"\(n(y))\"/>\n"
        var t = 0.0
        while t <= seconds + 1e-9 {
            let tx = x(t * 1000)
            svg += "<line class=\"axis\" x1=\"\(n(tx))\" x2=\"\(n(tx))\" y1=\"\(n(y))\" y2=\"\(n(y + 4))\"/>"
            svg += "<text class=\"tick-x\" x=\"\(n(tx))\" y=\"\(n(y + 16))\">\(HTMLText.time(milliseconds: t * 1000))</text>\n"
            t += step
        }
        return svg
    }

    private func n(_ value: Double) -> String { HTMLText.number(value) }
}
