/// Every way a command-line run can end without running a command, or after one fails.
///
/// The parser produces the first four; the tool adds the last two for errors from running, so one mapping
/// (``MessageInfo``) decides the text, stream and exit code of all of them.
public enum CommandExit: Equatable, Sendable {
    /// Help text was asked for (or a command with subcommands was given nothing to run).
    case help(String)
    /// `--version` was asked for; the payload is the version string.
    case version(String)
    /// `--generate-completion-script` was asked for; the payload is the script.
    case completionScript(String)
    /// The command line is unusable.
    case usageError(UsageError)
    /// Running the command failed; the payload is a description safe to show.
    case failure(String)
    /// The command chose its exit code and has already said all it wants to.
    case exitCode(Int32)
}
