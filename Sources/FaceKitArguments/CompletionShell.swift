/// A shell `--generate-completion-script` writes for.
enum CompletionShell: String, CaseIterable, ExpressibleByArgument {
    case bash, zsh, fish
}
