import ArgumentParsing
import BuiltinPlugins
import RuleEngine

/// The command line, as a function: argv in, text on a console and an exit code out.
///
/// The executable calls it once; tests call it in-process with a console that records.
public enum BotCLI {
    /// Runs the bot with `arguments` (argv without the program name), with the plugins of
    /// `registry`.
    ///
    /// Cancelling the task stops the command cleanly (after the write in flight), with 128 + the
    /// signal `control` recorded, 130 when none was; `control` also carries reloads to `watch`.
    public static func run(
        _ arguments: [String], environment: [String: String], console: any Console,
        registry: PluginRegistry = BuiltinPlugins.registry, control: CommandControl = CommandControl()
    ) async -> Int32 {
        let width = environment["COLUMNS"].flatMap { Int($0) }.map { max($0, 40) } ?? 80
        let outcome = CommandParser.parse(
            arguments, root: BotCommandTable.root, width: width, shell: environment["SHELL"])
        switch outcome {
        case .exit(let exit):
            let message = MessageInfo(exit)
            console.write(message.text, to: message.stream)
            return message.exitCode
        case .run(let invocation):
            /// Runs a command, printing a failure as `error: ...` with its exit code; a failure that
            /// cancellation caused (a read cut short) is the stop it is, and so is a command that
            /// ended normally after a stop (its last write was in flight): a stop's exit code is
            /// always 128 + the signal, as systemd and CI expect.
            func finish(_ body: () async throws(CommandFailure) -> BotExitCode) async -> Int32 {
                do {
                    let code = try await body()
                    return Task.isCancelled ? control.stoppedCode.rawValue : code.rawValue
                } catch  where Task.isCancelled {
                    console.write("stopped: \(error.message)\n", to: .error)
                    return control.stoppedCode.rawValue
                } catch {
                    console.write("error: \(error.message)\n", to: .error)
                    return error.code.rawValue
                }
            }
            switch invocation.commandPath.dropFirst().first {
            case "plan":
                return await finish { () throws(CommandFailure) in
                    try await PlanCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry,
                        control: control
                    ).run()
                }
            case "run":
                return await finish { () throws(CommandFailure) in
                    try await RunCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry,
                        control: control
                    ).run()
                }
            case "apply":
                return await finish { () throws(CommandFailure) in
                    try await ApplyCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry,
                        control: control
                    ).run()
                }
            case "explain":
                return await finish { () throws(CommandFailure) in
                    try await ExplainCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry,
                        control: control
                    ).run()
                }
            case "snapshot":
                return await finish { () throws(CommandFailure) in
                    try await SnapshotCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry
                    ).run()
                }
            case "test":
                return await finish { () throws(CommandFailure) in
                    try TestCommand(invocation: invocation, console: console, registry: registry).run()
                }
            case "watch":
                // At once, before the rules are read or the server asked: a SIGHUP to a watcher
                // still starting is a reload, not a stop.
                control.acceptReloads()
                return await finish { () throws(CommandFailure) in
                    try await WatchCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry,
                        control: control
                    ).run()
                }
            case "history":
                return await finish { () throws(CommandFailure) in
                    try await HistoryCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry
                    ).run()
                }
            case "check":
                return await finish { () throws(CommandFailure) in
                    try CheckCommand(
                        invocation: invocation, environment: environment, console: console, registry: registry
                    ).run()
                }
            case "schema":
                console.write(RuleSchema.json(registry: registry), to: .output)
                return BotExitCode.ok.rawValue
            default:
                let message = MessageInfo(.usageError(invocation.usageError("Missing required subcommand.")))
                console.write(message.text, to: message.stream)
                return message.exitCode
            }
        }
    }
}
