import FaceKit
import FaceKitArguments

/// The people of a `--known` folder, read by FaceKit (``KnownPeople/read(folder:detector:tolerance:)``):
/// one folder per person (`DIR/<name>/*.jpg`) or one image per person (`DIR/<name>.jpg`). Each
/// reference image must hold exactly one face: one with none or several, or that cannot be read,
/// is named in a warning and skipped.
extension KnownPeople {
    /// Reads `directory`. A missing or empty folder, or one in which no reference image could be
    /// used, is a usage error (``CommandError``); each note (an entry or image skipped) is
    /// reported on `warnings`, in the order met.
    init(directory: String, tolerance: Double, detector: FaceDetector, warnings: any TextOutput) throws {
        do {
            let (people, notes) = try KnownPeople.read(folder: directory, detector: detector, tolerance: tolerance)
            for note in notes { warnings.writeDiagnostic(Self.message(note)) }
            self = people
        } catch {
            throw Self.commandError(error)
        }
    }

    /// The warning `facekit` writes for `note`: a skipped entry says it was skipped in '--known'.
    static func message(_ note: FolderNote) -> String {
        switch note.kind {
        case .hiddenEntry, .folderWithoutImage, .unreadableFolder: "\(note.path): skipped in '--known': \(note.reason)"
        case .nameNotUTF8, .unusableImage, .personWithoutImage: note.description
        }
    }

    /// The usage error of a folder that cannot be read.
    static func commandError(_ error: FolderError) -> CommandError {
        CommandError("Invalid '--known \(error.folder)': \(error.reason)")
    }
}
