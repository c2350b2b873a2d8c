/// `people.html`: how its people were found and what is not in them (``ReportCollection/peopleNotes``),
/// then a grid of each person's best shot (opening its full picture) with name or number and
/// how many photos and videos they are in (opening their page); and `people/person-N.html`, one
/// page per person: their best shot beside their name and number, then their faces cropped from the sources (at most
/// `--faces-per-person`, best shots first), each linked to the full photo or video frame.
struct PeoplePages {
    let people: [ReportCollection.Person]
    let layout: ReportLayout
    let written: Set<String>
    let page: ReportPage

    /// How the people were found and what is not in them, as the page says it (HTML).
    let notes: [String]

    func gridHTML() -> String {
        // Always said: a page of people is only as good as what grouped them.
        var body = notes.map { "<p class=\"people-note\">\($0)</p>\n" }.joined()
        body += "<div class=\"people\" id=\"people-grid\">\n"
        for (index, person) in people.enumerated() {
            // The best shot opens its full picture, as every picture of the report; the caption
            // opens the person's page.
            body += "<div class=\"person\">"
            body += ReportPage.linkedImage(layout.personBest[index], depth: 0, alt: person.title, written: written)
            body += "<a class=\"person-link\" href=\"people/person-\(index).html\">"
            body += "<span class=\"caption\"><b>\(HTMLText.escaped(person.title))</b>"
            if let id = person.id, person.name != nil { body += " <span class=\"muted\">Person \(id)</span>" }
            body += "<br><span class=\"muted\">" + counts(person) + "</span></span></a></div>\n"
        }
        return page.document(title: "People", section: .people, body: body + "</div>\n")
    }

    func personHTML(_ index: Int) -> String {
        let person = people[index]
        var body = "<div class=\"person-head\">"
        body += ReportPage.linkedImage(layout.personBest[index], depth: 1, alt: "best shot of " + person.title, written: written)
        body += "<p>"
        if let id = person.id, person.name != nil { body += "Person \(id) · " }
        body += counts(person) + " · " + "\(person.faceCount) face" + (person.faceCount == 1 ? "" : "s")
        if person.faces.count < person.faceCount { body += " (the best \(person.faces.count) shown)" }
        body += "</p></div>\n<div class=\"faces\">\n"
        for (number, face) in person.faces.enumerated() {
            body += "<figure>" + ReportPage.linkedImage(
                layout.personFaces[index][number], depth: 1, alt: face.source, written: written)
            body += "<figcaption>\(HTMLText.path(face.source))"
            if let frame = face.frame {
                body += " <span class=\"muted\">\(face.timestampMs.map { HTMLText.time(milliseconds: $0) } ?? "frame \(frame)")</span>"
            }
            body += "</figcaption></figure>\n"
        }
        return page.document(title: person.title, section: .people, depth: 1, body: body + "</div>\n")
    }

    private func counts(_ person: ReportCollection.Person) -> String {
        let photos = person.photos == 1 ? "1 photo" : "\(person.photos) photos"
        let videos = person.videos == 1 ? "1 video" : "\(person.videos) videos"
        return photos + " · " + videos
    }
}
