/// What one input of `facekit group` is, told by its name: the JSON Lines of `analyze
/// --descriptors` (`.jsonl`, or `.ndjson` as `report` reads them), a video
/// (``ImageFileWalker/videoExtensions``), or else a photo. Folders are walked
/// (``ImageFileWalker``) for photos and videos.
enum GroupInput: Equatable {
    case descriptorLines(String)
    case photo(ImageFileWalker.Entry)
    case video(String)

    /// The names read as JSON Lines.
    static let descriptorLinesExtensions: Set<String> = ["jsonl", "ndjson"]

    /// What to say about a file that failed as a photo when its name says it is a table: the
    /// CSV of `analyze` or `group` (no descriptors), or JSON not named as JSON Lines.
    static func tableHint(for path: String) -> String? {
        if ImageFileWalker.hasExtension(path, in: ["csv", "tsv"]) {
            return "group reads photos, videos and the JSON Lines of facekit analyze --descriptors --format jsonl, "
                + "not a CSV table (it holds no descriptors): write the JSON Lines with that command and give group the .jsonl file"
        }
        if ImageFileWalker.hasExtension(path, in: ["json"]) {
            return "group reads JSON Lines only when named .jsonl or .ndjson "
                + "(the output of facekit analyze --descriptors --format jsonl)"
        }
        return nil
    }

    /// Every photo and video in the walk order of `paths`, with `.jsonl` files as given. Files a
    /// folder holds below `skipped` (group's own `crops/`, when the output folder is inside an
    /// input folder) are left out: they are this command's pictures of an earlier run, not photos.
    static func expand(_ paths: [String], skipping skipped: String? = nil) -> [GroupInput] {
        let extensions = ImageFileWalker.imageExtensions.union(ImageFileWalker.videoExtensions)
        let skippedPrefix = skipped.map { AnnotationTarget.resolvingLinks($0) + "/" }
        return paths.flatMap { path -> [GroupInput] in
            if ImageFileWalker.hasExtension(path, in: descriptorLinesExtensions) { return [.descriptorLines(path)] }
            return ImageFileWalker(paths: [path], extensions: extensions).compactMap { entry -> GroupInput? in
                if let skippedPrefix, entry.path != path, entry.failureDescription == nil,
                    AnnotationTarget.resolvingLinks(entry.path).hasPrefix(skippedPrefix)
                {
                    return nil
                }
                if entry.failureDescription == nil, ImageFileWalker.hasExtension(entry.path, in: ImageFileWalker.videoExtensions) {
                    return .video(entry.path)
                }
                return .photo(entry)
            }
        }
    }
}

extension GroupInput {
    /// Inputs taken together: consecutive photos go through the work queue as one batch.
    enum Batch: Equatable {
        case descriptorLines(String)
        case photos([ImageFileWalker.Entry])
        case video(String)
    }

    /// `inputs` in order, runs of photos together.
    static func batches(_ inputs: [GroupInput]) -> [Batch] {
        var batches: [Batch] = []
        for input in inputs {
            switch input {
            case .descriptorLines(let path): batches.append(.descriptorLines(path))
            case .video(let path): batches.append(.video(path))
            case .photo(let entry):
                if case .photos(let entries) = batches.last {
                    batches[batches.count - 1] = .photos(entries + [entry])
                } else {
                    batches.append(.photos([entry]))
                }
            }
        }
        return batches
    }
}
