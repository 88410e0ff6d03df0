import ArgumentParsing
import BotCLI
import BuiltinPlugins
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The executable's entry point: one call into the command line, then exit with its code.
///
/// It alone turns signals into what the command understands: SIGINT and SIGTERM cancel the
/// command's task, which ends every wait at once and stops after the write in flight, if one is,
/// with 130 or 143; SIGHUP reloads the rules of `watch` and stops any other command with 129, as a
/// closed terminal should. A second signal of the same kind ends the process at once, by the
/// signal's default action.
@main
enum GitbayBot {
    static func main() async {
        let signals = SignalRelay.start(stopping: [SIGINT, SIGTERM], repeating: [SIGHUP])
        let control = CommandControl()
        let console = StandardConsole()
        let command = Task {
            await BotCLI.run(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                console: console, registry: BuiltinPlugins.registry, control: control)
        }
        if let signals {
            Task {
                for await signal in signals {
                    if signal == SIGHUP {
                        if control.requestReload() { continue }
                        SignalRelay.endOnNext(SIGHUP)
                    }
                    let writeInFlight = control.recordStop(by: signal)
                    command.cancel()
                    // Said once the stop is in force, so whoever sent the signal can tell it arrived,
                    // and truthfully: no write goes out after the stop, so one in flight now is the last.
                    console.write(
                        "note: \(name(of: signal)) received: \(CommandControl.stopNote(writeInFlight: writeInFlight))\n",
                        to: .error)
                }
            }
        }
        exit(await command.value)
    }

    /// The signal's name as people write it.
    private static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }
}
