import Foundation
import Synchronization

/// The built `gitbay-bot` running as a child process, for drills that need real signals.
///
/// In-process runs cannot be killed or interrupted without killing the test runner, so the
/// SIGKILL and SIGINT drills start the binary SwiftPM built next to the test bundle.
final class BotProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Drain()
    private let error = Drain()

    /// The built `gitbay-bot`, in the folder of this test binary.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("gitbay-bot")

    /// Starts the bot with `arguments` and only `environment` (plus a plain PATH and, when it names
    /// no state folder, a scratch HOME).
    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = testEnvironment(environment).merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        process.standardOutput = output.pipe
        process.standardError = error.pipe
        try process.run()
        output.start()
        error.start()
    }

    var processIdentifier: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the bot (and only to it).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the bot to end, at most `seconds` (then kills it), and returns what it left.
    func finish(
        within seconds: TimeInterval = 30
    ) async -> (status: Int32, reason: Process.TerminationReason, output: String, error: String) {
        let watchdog = Task { [self] in
            try await Task.sleep(for: .seconds(seconds))
            if process.isRunning { send(SIGKILL) }
        }
        defer { watchdog.cancel() }
        // Both pipes end when the bot exits; waiting for that blocks, so not on the test pool's threads.
        let (printed, complained) = await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                let streams = (output.text(), error.text())
                process.waitUntilExit()
                continuation.resume(returning: streams)
            }
        }
        return (process.terminationStatus, process.terminationReason, printed, complained)
    }

    /// One of the child's pipes, read to its end on a thread of its own from the child's start.
    ///
    /// A pipe holds 64 KiB: a child printing more blocks until someone reads, so reading only once
    /// the child has exited would hang it until the kill.
    private final class Drain: @unchecked Sendable {
        let pipe = Pipe()
        private let data = Mutex(Data())
        private let ended = DispatchSemaphore(value: 0)

        func start() {
            Thread.detachNewThread { [self] in
                let all = pipe.fileHandleForReading.readDataToEndOfFile()
                data.withLock { $0 = all }
                ended.signal()
            }
        }

        /// Everything the child wrote, once it closed the pipe (by exiting); blocks until then.
        func text() -> String {
            ended.wait()
            ended.signal()
            return data.withLock { String(decoding: $0, as: UTF8.self) }
        }
    }
}
