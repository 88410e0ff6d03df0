import ArgumentParsing

/// A command of the bot: declared once as data, its options read once into typed values, then run.
///
/// The command table lists the types, and ``BotCLI`` makes the one the parser chose from its
/// invocation: every value the table cannot check (a duration, a time, an item) is checked there,
/// so a wrong one is exit 64 before any file is read or any server asked, and `run()` works on
/// typed values only.
protocol BotCommand {
    /// The command's declaration: name, help, options and positionals.
    static var spec: CommandSpec { get }
    /// Whether SIGHUP reloads the command's rules instead of stopping it, from the moment the
    /// command is chosen (a watcher still starting is reloaded, not stopped).
    static var acceptsReloads: Bool { get }

    /// Reads the command's options from `invocation`; a value that is wrong is a usage failure.
    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure)

    /// Does the command's work and answers its exit code.
    func run() async throws(CommandFailure) -> BotExitCode
}

extension BotCommand {
    static var acceptsReloads: Bool { false }
}
