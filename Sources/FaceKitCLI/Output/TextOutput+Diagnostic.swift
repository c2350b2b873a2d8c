import FaceKitArguments

extension TextOutput {
    /// Writes the runtime failure `message` as one line, `facekit: <message>`.
    func writeDiagnostic(_ message: String) {
        write("facekit: " + MessageText.escaped(message) + "\n")
    }
}
