import Foundation
import Synchronization

/// The built `gitbay-bot` running as a child process, for drills that need real signals.
///
/// In-process runs cannot be killed or interrupted without killing the test runner, so the
/// SIGKILL and SIGINT drills start the binary SwiftPM built next to the test bundle.
final class BotProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let error = Pipe()
    private let signalled = Atomic<Bool>(false)

    /// The built `gitbay-bot`, in the folder of this test binary.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("gitbay-bot")

    /// Starts the bot with `arguments` and only `environment` (plus a plain PATH).
    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        process.standardOutput = output
        process.standardError = error
        try process.run()
    }

    var processIdentifier: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the bot (and only to it).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` once `condition` holds, polled every 10 ms on a thread of its own (the test
    /// pool's threads may all be busy when the suites run in parallel), for at most `seconds`.
    func send(_ signal: Int32, when condition: @escaping @Sendable () -> Bool, within seconds: TimeInterval = 30) {
        let deadline = Date().addingTimeInterval(seconds)
        Thread.detachNewThread { [self] in
            while process.isRunning && Date() < deadline {
                if condition() {
                    send(signal)
                    signalled.store(true, ordering: .relaxed)
                    return
                }
                usleep(10_000)
            }
        }
    }

    /// Whether ``send(_:when:within:)`` saw its condition and sent its signal.
    var hasSignalled: Bool { signalled.load(ordering: .relaxed) }

    /// Waits for the bot to end, at most `seconds` (then kills it), and returns what it left.
    func finish(
        within seconds: TimeInterval = 30
    ) async -> (status: Int32, reason: Process.TerminationReason, output: String, error: String) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, process.terminationReason, printed, complained)
    }
}
