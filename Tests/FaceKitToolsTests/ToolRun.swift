import FaceKitArguments

/// One in-process run of a tool's command line: its exit status and what it wrote.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `Root`'s command line `arguments` in process.
    init<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) {
        let out = StringOutput()
        let err = StringOutput()
        status = Root.main(arguments: arguments, stdout: out, stderr: err)
        stdout = out.text
        stderr = err.text
    }
}
