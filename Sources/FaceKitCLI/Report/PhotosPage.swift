/// `photos.html`: every photo's thumbnail with its faces' boxes, linked to the full photo, in
/// path order, sortable by the
/// most faces or the broadest smile (sort.js; without script the page shows everything in path
/// order).
struct PhotosPage {
    let collection: ReportCollection
    let layout: ReportLayout
    let written: Set<String>
    let page: ReportPage

    func html() -> String {
        var body = """
            <div class="sorting" id="photo-sorting">Sort by
            <button type="button" data-sort="name" aria-pressed="true">name</button>
            <button type="button" data-sort="faces" aria-pressed="false">faces</button>
            <button type="button" data-sort="smile" aria-pressed="false">smile</button>
            </div>
            <div class="grid" id="photo-grid">

            """
        for (index, photo) in collection.photos.enumerated() {
            let smile = photo.smile
            body += "<figure class=\"photo\" data-order=\"\(index)\" data-faces=\"\(photo.faces.count)\" "
            body += "data-smile=\"\(HTMLText.number(smile ?? -1, digits: 4))\">\n"
            body += ReportPage.linkedImage(layout.photoThumbnails[index], depth: 0, alt: photo.source, written: written)
            body += "\n<figcaption>\(HTMLText.path(photo.source))<br><span class=\"muted\">"
            body += photo.faces.count == 1 ? "1 face" : "\(photo.faces.count) faces"
            if let smile { body += " · smile \(HTMLText.percent(smile))" }
            body += "</span></figcaption>\n</figure>\n"
        }
        body += "</div>\n"
        return page.document(title: "Photos", section: .photos, body: body, scripts: ["sort.js"])
    }
}
