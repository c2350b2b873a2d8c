/// `photos.html`: every photo's thumbnail with its faces' boxes, linked to the full photo, and
/// who its faces are, left to right (the `--known` name, else the person the face is in, each
/// linked to that person's page), in path order, sortable by the most faces or the broadest
/// smile (sort.js; without script the page shows everything in path order).
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
            body += "</span>" + names(photo) + "</figcaption>\n</figure>\n"
        }
        body += "</div>\n"
        return page.document(title: "Photos", section: .photos, body: body, scripts: ["sort.js"])
    }

    /// Who the photo's faces are, left to right as their boxes lie: each face's `--known` name,
    /// else its person's title (`Person 3`), linked to that person's page; `unknown` for a face
    /// in no person. Empty when no face of the photo is named or in a person.
    func names(_ photo: ReportCollection.Photo) -> String {
        let people = collection.people ?? []
        let shown = photo.faces.sorted { $0.box.midX < $1.box.midX }.map { face -> String? in
            let person = collection.personOf[ReportCollection.key(photo: photo.source, face: face.index)]
            guard let title = face.person ?? person.map({ people[$0].title }) else { return nil }
            let text = HTMLText.escaped(title)
            return person.map { "<a href=\"people/person-\($0).html\">\(text)</a>" } ?? text
        }
        guard shown.contains(where: { $0 != nil }) else { return "" }
        let list = shown.map { $0 ?? "<span class=\"muted\">unknown</span>" }.joined(separator: ", ")
        return "<br><span class=\"names\">" + list + "</span>"
    }
}
