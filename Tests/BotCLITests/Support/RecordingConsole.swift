import ArgumentParsing
import BotCLI
import Foundation
import GitbayTestSupport
import Synchronization

/// A console that keeps what each stream was given, for tests of the whole command line.
final class RecordingConsole: Console {
    private let streams = Mutex<(output: String, error: String)>(("", ""))
    let terminal: Bool

    init(terminal: Bool = false) {
        self.terminal = terminal
    }

    var output: String { streams.withLock { $0.output } }
    var error: String { streams.withLock { $0.error } }

    func write(_ text: String, to stream: StandardStream) {
        streams.withLock { streams in
            if stream == .output { streams.output += text } else { streams.error += text }
        }
    }

    func isTerminal(_ stream: StandardStream) -> Bool { terminal }
}

/// Runs the command line in-process with `arguments` and returns its exit code and what it printed.
func runBot(
    _ arguments: [String], environment: [String: String] = [:]
) async -> (
    code: Int32, output: String, error: String
) {
    let console = RecordingConsole()
    let code = await BotCLI.run(arguments, environment: testEnvironment(environment), console: console)
    return (code, console.output, console.error)
}

/// Runs the command line in-process against `simulator` with its token, the clock frozen at the
/// demo forge's now and a rate limit the fast simulators allow.
func runBot(
    against simulator: SimulatorProcess, _ arguments: [String], now: String = "2026-11-29T12:00:00.000Z"
) async -> (code: Int32, output: String, error: String) {
    await runBot(
        arguments + ["--url", simulator.baseURL.absoluteString, "--now", now, "--rate-limit", "6000"],
        environment: ["GITBAY_TOKEN": simulator.token])
}
