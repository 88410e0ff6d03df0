/// A shell `--generate-completion-script` can write for.
public enum CompletionShell: String, CaseIterable, Equatable, Sendable {
    /// GNU bash.
    case bash
    /// Z shell.
    case zsh
    /// fish.
    case fish

    /// The shell named by a path such as `$SHELL` (`/usr/bin/zsh`), if it is one we support.
    init?(shellPath: String) {
        guard let last = shellPath.split(separator: "/").last else { return nil }
        self.init(rawValue: String(last))
    }

    /// The completion script for the tool whose command tree is rooted at `root`.
    func script(for root: CommandSpec) -> String {
        switch self {
        case .bash: BashCompletionScript(root: root).rendered()
        case .zsh: ZshCompletionScript(root: root).rendered()
        case .fish: FishCompletionScript(root: root).rendered()
        }
    }
}
