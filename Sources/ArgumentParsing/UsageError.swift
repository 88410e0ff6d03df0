/// A command line the tool cannot run, with what is needed to tell the user how to fix it.
///
/// It carries text, not a reference to the table, so a command's own validation can build one the same way
/// the parser does (see ``Invocation/usageError(_:)``).
public struct UsageError: Error, Equatable, Sendable {
    /// The sentence after `Error: `.
    public var message: String
    /// The argument label and help text shown after `Help:  `, when the error concerns one argument.
    public var help: String?
    /// The innermost command's synopsis, shown after `Usage: `.
    public var usage: String
    /// The command path (`tool sub`) named in the `See '... --help'` line.
    public var commandPath: String

    /// Creates a usage error.
    public init(message: String, help: String? = nil, usage: String, commandPath: String) {
        self.message = message
        self.help = help
        self.usage = usage
        self.commandPath = commandPath
    }
}
