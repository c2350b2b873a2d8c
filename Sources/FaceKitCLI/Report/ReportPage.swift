/// The frame every page of the report shares: the document head, the navigation between the
/// sections the report has, and the one style sheet. Pages one folder down (`videos/`,
/// `people/`) reach the shared files through `../`; no path leaves the report folder.
struct ReportPage {
    enum Section: String, CaseIterable {
        case overview = "Overview"
        case photos = "Photos"
        case people = "People"
        case videos = "Videos"

        var file: String {
            switch self {
            case .overview: "index.html"
            case .photos: "photos.html"
            case .people: "people.html"
            case .videos: "videos.html"
            }
        }
    }

    /// The sections this report has, in the navigation's order.
    var sections: [Section]

    /// A whole HTML document. `title` is escaped here, and shown as the heading unless
    /// `heading` (HTML) is given; `body` is HTML built with ``HTMLText``.
    func document(
        title: String, heading: String? = nil, section: Section, depth: Int = 0, body: String, scripts: [String] = []
    ) -> String {
        let up = String(repeating: "../", count: depth)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="facekit report \(FaceKitCommand.version)">
            <title>\(HTMLText.escaped(title)) · FaceKit report</title>
            <link rel="stylesheet" href="\(up)style.css">
            </head>
            <body>
            <nav>
            <span class="brand">FaceKit report</span>

            """
        for item in sections {
            let current = item == section ? " aria-current=\"page\"" : ""
            html += "<a href=\"\(up)\(item.file)\"\(current)>\(item.rawValue)</a>\n"
        }
        html += "</nav>\n<main>\n<h1>\(heading ?? HTMLText.escaped(title))</h1>\n" + body + "\n</main>\n"
        for script in scripts { html += "<script src=\"\(up)\(script)\"></script>\n" }
        return html + "</body>\n</html>\n"
    }

    /// An `<img>` of a picture the report wrote, or a placeholder saying why there is none.
    static func image(_ path: String?, depth: Int, alt: String, written: Set<String>, className: String = "") -> String {
        let up = String(repeating: "../", count: depth)
        let classAttribute = className.isEmpty ? "" : " class=\"\(className)\""
        guard let path, written.contains(path) else {
            return "<div class=\"missing\(className.isEmpty ? "" : " " + className)\">no picture: the source could not be read</div>"
        }
        return "<img\(classAttribute) src=\"\(up)\(path)\" alt=\"\(HTMLText.escaped(alt))\" loading=\"lazy\">"
    }

    /// ``image(_:depth:alt:written:className:)`` of `shown` in a link to its full picture (or,
    /// should that one be missing, to the picture itself), so that no picture links to nothing.
    static func linkedImage(
        _ shown: ReportLayout.Shown?, depth: Int, alt: String, written: Set<String>, className: String = ""
    ) -> String {
        let html = image(shown?.picture, depth: depth, alt: alt, written: written, className: className)
        guard let shown, written.contains(shown.picture) else { return html }
        let target = written.contains(shown.full) ? shown.full : shown.picture
        return "<a class=\"full\" href=\"\(String(repeating: "../", count: depth))\(target)\">\(html)</a>"
    }

    /// The narrowest a contact-sheet frame is shown, in CSS px (where the screen allows), which
    /// ``ReportPictures/sheetLabelHeight`` is chosen for.
    static let sheetColumnWidth = 320

    /// The column of panel labels beside a track's plot (and of lane labels unless the lanes set
    /// their own, ``VideoTimeline/labelWidth``), in CSS px; at a phone's width the labels go
    /// above their lanes and panels instead, so that these have the whole width.
    static let timelineLabelWidth = 150

    static let styleSheet = """
        :root { --ink: #1d2330; --muted: #5d6675; --line: #d9dde4; --paper: #f6f7f9; --accent: #2f6fd6; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
        nav { display: flex; flex-wrap: wrap; gap: 4px 18px; align-items: baseline; padding: 10px 24px; background: #1d2330; }
        nav a { color: #d8e2f4; text-decoration: none; }
        nav a[aria-current] { color: #fff; font-weight: 600; border-bottom: 2px solid #ffd600; }
        nav .brand { color: #ffd600; font-weight: 700; margin-right: 12px; }
        main { max-width: 1200px; margin: 0 auto; padding: 8px 24px 48px; }
        h1 { font-size: 26px; margin: 18px 0 8px; overflow-wrap: break-word; }
        h2 { font-size: 19px; margin: 28px 0 8px; }
        h3 { font-size: 16px; margin: 18px 0 6px; }
        a { color: var(--accent); }
        .stats { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; padding: 0; list-style: none; }
        .stats li { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 120px; }
        .stats b { display: block; font-size: 24px; }
        .stats span { color: var(--muted); font-size: 13px; }
        table { border-collapse: collapse; margin: 8px 0; display: block; max-width: 100%; overflow-x: auto; }
        th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; overflow-wrap: break-word; background: #fff; }
        td.when { white-space: nowrap; }
        td.face { padding: 3px; width: 58px; }
        td.face img, td.face .missing { width: 52px; height: 52px; display: block; border-radius: 4px; }
        td.face .missing { padding: 0; font-size: 0; }
        th { background: #eef0f4; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
        figure { margin: 0; }
        svg { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
        .plot, .charts figure { overflow-x: auto; }
        .charts svg { min-width: 560px; }
        svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
        svg .bar { fill: #4d86e0; }
        svg .count, svg .label, svg .axis-label, svg .tick-x { text-anchor: middle; }
        svg .axis-label, svg .tick, svg .tick-x { fill: var(--muted); }
        svg .axis { stroke: #8a93a3; stroke-width: 1; }
        svg .tick { text-anchor: end; }
        .lanes, .track-plot { --label: \(timelineLabelWidth)px; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px 2px; }
        .lane, .panel-row { display: grid; grid-template-columns: var(--label) minmax(0, 1fr); gap: 2px 10px; align-items: center; margin: 4px 0; }
        .lane-label, .panel-label { font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; text-align: right; }
        .lane-bar { position: relative; height: 14px; background: #eef0f4; border-radius: 2px; }
        .lane-bar .segment { position: absolute; top: 0; bottom: 0; min-width: 2px; }
        svg.panel { height: 64px; border-radius: 2px; background: #fafbfc; }
        svg.panel .half { stroke: var(--line); stroke-dasharray: 3 3; vector-effect: non-scaling-stroke; }
        svg.panel .series { fill: none; stroke-width: 1.6; stroke-linejoin: round; vector-effect: non-scaling-stroke; }
        svg.panel .series.smile { stroke: #e8890c; }
        svg.panel .series.eyes { stroke: #2f6fd6; }
        svg.panel .series.yaw { stroke: #8a3fc7; }
        svg.panel .blink { stroke: #d62f4b; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
        .panel-label .none { color: var(--muted); }
        .time-axis { position: relative; height: 22px; margin-left: calc(var(--label) + 10px); font-size: 12px; color: var(--muted); }
        .time-axis .tick { position: absolute; top: 3px; transform: translateX(-50%); white-space: nowrap; }
        .time-axis .tick.start { transform: none; }
        .time-axis .tick.end { transform: translateX(-100%); }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 14px; }
        .grid figure, .person { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
        .grid img, .grid .missing { width: 100%; height: auto; display: block; border-radius: 4px; }
        figcaption, .caption { display: block; font-size: 13px; margin-top: 6px; overflow-wrap: break-word; }
        a.full { display: block; }
        figcaption .muted, .muted { color: var(--muted); }
        .missing { background: #eceef2; color: var(--muted); font-size: 12px; padding: 24px 8px; text-align: center; }
        .people { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 14px; }
        .person { display: block; text-align: center; }
        .person-link { text-decoration: none; color: inherit; display: block; }
        .person img, .faces img { width: 100%; height: auto; border-radius: 4px; display: block; }
        .faces { display: grid; grid-template-columns: repeat(auto-fill, minmax(110px, 1fr)); gap: 10px; }
        .faces figure { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 5px; }
        .sheet { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, \(sheetColumnWidth)px), 1fr)); gap: 10px; }
        .sheet figure { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 5px; }
        .sheet img { width: 100%; height: auto; display: block; }
        .track-head { display: flex; gap: 14px; align-items: center; }
        .track-head a.full, .person-head a.full { flex: none; }
        .track-head img, .track-head .missing, .person-head img, .person-head .missing { width: 72px; height: 72px; border-radius: 6px; display: block; }
        .track-head .missing, .person-head .missing { padding: 4px; font-size: 10px; }
        .person-head { display: flex; gap: 14px; align-items: center; margin: 8px 0; }
        .swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; border: 1px solid #0005; vertical-align: -2px; }
        .sorting { display: none; gap: 8px; align-items: center; margin: 8px 0 14px; }
        .sorting.ready { display: flex; }
        .sorting button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); background: #fff; border-radius: 5px; cursor: pointer; }
        .sorting button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
        code { background: #eef0f4; padding: 1px 4px; border-radius: 3px; overflow-wrap: break-word; }
        @media (max-width: 560px) {
          nav { padding: 8px 12px; }
          main { padding: 4px 12px 32px; }
          h1 { font-size: 21px; }
          .stats li { min-width: 0; flex: 1 1 40%; padding: 8px 12px; }
          .lane, .panel-row { grid-template-columns: minmax(0, 1fr); }
          .lane-label, .panel-label { text-align: left; }
          .time-axis { margin-left: 0; }
        }
        """

    /// Sorts the photo grid by a `data-` attribute of its figures, on a click or when the page is
    /// opened as `photos.html#sort=faces` (or `smile`, `name`), which a click also sets, so a
    /// sorted view can be bookmarked. The grid is complete without it: the buttons appear only
    /// when this runs.
    static let sortScript = """
        (function () {
          var grid = document.getElementById("photo-grid");
          var bar = document.getElementById("photo-sorting");
          if (!grid || !bar) return;
          bar.classList.add("ready");
          var buttons = bar.querySelectorAll("button");
          function order(item) { return Number(item.getAttribute("data-order")); }
          function sortBy(key) {
            var button = bar.querySelector('button[data-sort="' + key + '"]');
            if (!button) return;
            var items = Array.prototype.slice.call(grid.children);
            items.sort(function (a, b) {
              if (key === "name") return order(a) - order(b);
              var d = Number(b.getAttribute("data-" + key)) - Number(a.getAttribute("data-" + key));
              return d !== 0 ? d : order(a) - order(b);
            });
            items.forEach(function (item) { grid.appendChild(item); });
            buttons.forEach(function (other) { other.setAttribute("aria-pressed", String(other === button)); });
          }
          buttons.forEach(function (button) {
            button.addEventListener("click", function () {
              var key = button.getAttribute("data-sort");
              sortBy(key);
              history.replaceState(null, "", "#sort=" + key);
            });
          });
          var asked = /^#sort=(\\w+)$/.exec(location.hash);
          if (asked) sortBy(asked[1]);
        })();
        """
}
