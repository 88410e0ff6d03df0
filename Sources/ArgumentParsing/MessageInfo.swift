/// What to print, where, and which exit code to return for a ``CommandExit``.
///
/// This is the single place that decides how each outcome looks, as argument-parser's `MessageInfo` does, so
/// the entry point only writes `text` to `stream` and exits with `exitCode`.
public struct MessageInfo: Equatable, Sendable {
    /// The exit code for a usage error (`EX_USAGE` from sysexits.h, what argument-parser uses).
    public static let usageExitCode: Int32 = 64

    /// The full text to write, ending in a newline (empty when there is nothing to say).
    public var text: String
    /// The stream to write it to.
    public var stream: StandardStream
    /// The process exit code.
    public var exitCode: Int32

    /// Maps an exit to its message.
    public init(_ exit: CommandExit) {
        switch exit {
        case .help(let text):
            self.init(text: text, stream: .output, exitCode: 0)
        case .version(let version):
            self.init(text: version + "\n", stream: .output, exitCode: 0)
        case .completionScript(let script):
            self.init(text: script, stream: .output, exitCode: 0)
        case .usageError(let error):
            var text = "Error: \(error.message)\n"
            if let help = error.help {
                text += "Help:  \(help)\n"
            }
            text += "Usage: \(error.usage)\n"
            text += "  See '\(error.commandPath) --help' for more information.\n"
            self.init(text: text, stream: .error, exitCode: Self.usageExitCode)
        case .failure(let description):
            self.init(text: "Error: \(description)\n", stream: .error, exitCode: 1)
        case .exitCode(let code):
            self.init(text: "", stream: code == 0 ? .output : .error, exitCode: code)
        }
    }

    /// Creates a message directly.
    public init(text: String, stream: StandardStream, exitCode: Int32) {
        self.text = text
        self.stream = stream
        self.exitCode = exitCode
    }
}
