import ArgumentParsing
import BuiltinPlugins
import RuleEngine
import Timekeeping
import Watch

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
        await run(
            arguments, environment: environment, console: console, registry: registry, control: control,
            clock: SystemClock())
    }

    /// Runs the bot as ``run(_:environment:console:registry:control:)`` does, `watch` on `clock`:
    /// tests drive a watcher's schedule with a manual one.
    static func run(
        _ arguments: [String], environment: [String: String], console: any Console, registry: PluginRegistry,
        control: CommandControl, clock: any MonotonicClock
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
            let context = CommandContext(
                environment: environment, console: console, registry: registry, control: control, clock: clock)
            let name = invocation.commandPath.dropFirst().first
            guard let command = BotCommandTable.commands.first(where: { $0.spec.name == name }) else {
                let message = MessageInfo(.usageError(invocation.usageError("Missing required subcommand.")))
                console.write(message.text, to: message.stream)
                return message.exitCode
            }
            // At once, before the rules are read or the server asked: a SIGHUP to a watcher still
            // starting is a reload, not a stop.
            if command.acceptsReloads { control.acceptReloads() }
            return await finish { () throws(CommandFailure) in
                try await command.init(invocation, context: context).run()
            }
        }
    }
}
