import ArgumentParsing
import BotCLI
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
