import Testing

@testable import FaceKitCLI

/// ``NameSuggestion`` at work in facekit's own commands: what a misspelt option or subcommand
/// is answered with.
@Suite("NameSuggestion in facekit's commands")
struct SuggestedNameTests {
    @Test(
        "a misspelt option or subcommand is a usage error that says what was meant",
        arguments: [
            (["analyze", "--landmark", "x.jpg"], "Unknown option '--landmark'. Did you mean '--landmarks'?"),
            (["analyze", "--min-face=0.2", "x.jpg"], "Unknown option '--min-face'. Did you mean '--min-face-size'?"),
            (["analyze", "-landmarks", "x.jpg"], "Unknown option '-landmarks'. Did you mean '--landmarks'?"),
            (["track", "--max-mised", "3", "a.mp4"], "Unknown option '--max-mised'. Did you mean '--max-missed'?"),
            (["annotate", "--outptu", "o", "a.jpg"], "Unknown option '--outptu'. Did you mean '--output'?"),
            (["track", "--hlep"], "Unknown option '--hlep'. Did you mean '--help'?"),
            (["analyse", "x.jpg"], "Unknown subcommand 'analyse'. Did you mean 'analyze'?"),
            (["help", "trakc"], "Unknown subcommand 'trakc'. Did you mean 'track'?"),
            (["--verison"], "Unknown option '--verison'. Did you mean '--version'?"),
        ])
    func suggested(arguments: [String], message: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.first == "Error: " + message)
        #expect(run.stderrLines.dropFirst().first?.hasPrefix("Usage: facekit") == true, "\(run.stderr)")
    }

    @Test(
        "nothing is suggested when no name is close, several share the prefix, or the option is hidden",
        arguments: [
            (["analyze", "--bogus", "x.jpg"], "Unknown option '--bogus'"),
            (["analyze", "--min", "0.2", "x.jpg"], "Unknown option '--min'"),
            (["track", "--contour", "a.mp4"], "Unknown option '--contour'"),
            (["frobnicate"], "Unknown subcommand 'frobnicate'"),
        ])
    func notSuggested(arguments: [String], message: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderrLines.first == "Error: " + message)
    }
}
