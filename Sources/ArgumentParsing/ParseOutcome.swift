/// The result of parsing a command line: a command to run, or a way to end right away.
public enum ParseOutcome: Equatable, Sendable {
    /// Run the command described by the invocation.
    case run(Invocation)
    /// Print the message for this exit (see ``MessageInfo``) and end.
    case exit(CommandExit)
}
