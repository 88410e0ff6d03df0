import Foundation
import GitbayTestSupport

/// The built `gitbay-bot` running as a child process, for drills that need real signals.
///
/// In-process runs cannot be killed or interrupted without killing the test runner, so the
/// SIGKILL and SIGINT drills start the binary SwiftPM built next to the test bundle, through the
/// tests' one spawner (``ChildProcess``: fd-safe, drained while it runs, bounded waits).
final class BotProcess: Sendable {
    /// How the bot ended and what it printed.
    struct Ending {
        /// The exit status, or the signal's number when a signal ended the bot.
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
        var error: String
    }

    private let child: ChildProcess

    /// The built `gitbay-bot`, in the folder of this test binary.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("gitbay-bot")

    /// Starts the bot with `arguments` and only `environment` (plus a plain PATH and, when it names
    /// no state folder, a scratch HOME).
    init(_ arguments: [String], environment: [String: String]) throws {
        child = try ChildProcess(Self.executable.path, arguments, environment: Self.environment(environment))
    }

    /// The environment the bot runs with: `environment`, a plain PATH and a scratch HOME.
    static func environment(_ environment: [String: String]) -> [String: String] {
        testEnvironment(environment).merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
    }

    var processIdentifier: Int32 { child.pid }
    var isRunning: Bool { child.isRunning }

    /// Sends `signal` to the bot (and only to it).
    func send(_ signal: Int32) {
        child.send(signal)
    }

    /// Sends `signal` as a stop and waits (bounded) until the bot says it took it: from then on
    /// its run is cancelled, so what the test does next cannot race the signal's delivery.
    ///
    /// Answers what the bot wrote to stderr so far, its note of the stop included.
    @discardableResult
    func stop(with signal: Int32) async throws -> String {
        child.send(signal)
        return try await waitForError(containing: "received: stopping")
    }

    /// Waits until the bot has written `text` to stderr, at most `seconds`; what it wrote so far.
    func waitForError(containing text: String, within seconds: Int = 30) async throws -> String {
        try await child.errorOutput(timeout: .seconds(seconds)) { $0.contains(text) }
    }

    /// Waits until what the bot wrote to stdout satisfies `condition`, at most `seconds`; what it
    /// wrote so far.
    func waitForOutput(
        within seconds: Int = 30, where condition: @escaping @Sendable (String) -> Bool
    )
        async throws -> String
    {
        try await child.output(timeout: .seconds(seconds), where: condition)
    }

    /// Waits (bounded) until a watcher has printed `count` lines on stdout, where it prints its
    /// pass lines and nothing else; answers them.
    @discardableResult
    func passes(_ count: Int, within seconds: Int = 60) async throws -> [Substring] {
        try await waitForOutput(within: seconds) { $0.split(separator: "\n").count >= count }.split(separator: "\n")
    }

    /// Waits for the bot to end, at most `seconds`; past them it is killed and the wait fails.
    func finish(within seconds: Int = 30) async throws -> Ending {
        let ended = try await child.wait(timeout: .seconds(seconds))
        return Ending(
            status: ended.status ?? ended.signal ?? 0, reason: ended.signal == nil ? .exit : .uncaughtSignal,
            output: ended.outputText, error: ended.errorText)
    }
}
