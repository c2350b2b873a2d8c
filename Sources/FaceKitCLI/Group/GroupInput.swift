/// What one input of `facekit group` is, told by its name: the JSON Lines of `analyze
/// --descriptors` (`.jsonl`), a video (``ImageFileWalker/videoExtensions``), or else a photo.
/// Folders are walked (``ImageFileWalker``) for photos and videos.
enum GroupInput: Equatable {
    case descriptorLines(String)
    case photo(ImageFileWalker.Entry)
    case video(String)

    /// Every photo and video in the walk order of `paths`, with `.jsonl` files as given.
    static func expand(_ paths: [String]) -> [GroupInput] {
        let extensions = ImageFileWalker.imageExtensions.union(ImageFileWalker.videoExtensions)
        return paths.flatMap { path -> [GroupInput] in
            if ImageFileWalker.hasExtension(path, in: ["jsonl"]) { return [.descriptorLines(path)] }
            return ImageFileWalker(paths: [path], extensions: extensions).map { entry in
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
