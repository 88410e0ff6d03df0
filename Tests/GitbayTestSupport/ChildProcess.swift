import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started by a test: the one way the tests and benchmarks start programs.
///
/// Three traps made the suite hang now and then, and this type closes each of them:
/// - **Inherited descriptors.** A child inherits every descriptor of the test process that is not
///   close-on-exec, including the pipe ends and process-monitoring sockets of other tests' children;
///   while it lives, those children's readers see no end of file and their exits go unnoticed. Here
///   the child keeps 0, 1 and 2 only (spawn file actions close the rest), and the pipes this type
///   makes are close-on-exec in the test process.
/// - **Blocking the cooperative pool.** Reading a pipe or waiting for an exit blocks a thread; done
///   on the pool's threads (two on a two-core machine) it stalls every other test. Here one thread
///   of the child's own drains its output, reaps it and wakes the waiters, and another waits for
///   its exit; nothing here blocks the caller's thread.
/// - **Unbounded waits.** Every wait names its timeout; at the timeout the wait fails (and a
///   ``wait(timeout:)`` kills the child's process group), so a stuck child is a failing test.
///
/// The child runs in a process group of its own, so a timeout or ``stop(grace:)`` also ends what
/// it started. What it prints is kept up to ``capturedLimit`` a stream, and drained past it.
public final class ChildProcess: Sendable {
    /// The most bytes of each captured stream kept in memory: the first 8 MiB.
    ///
    /// A chatty or runaway child would otherwise grow the test process without end, and every
    /// waiter's condition, which reads the text so far, with it. The first part is kept, not the
    /// last, so what a waiter has seen is never taken back (the text only grows, and a first line
    /// stays the first line); past the limit the rest is still read, so the child never blocks
    /// on a full pipe, and counted in ``Termination/outputDropped`` and
    /// ``Termination/errorDropped``, which say it was cut.
    public static let capturedLimit = 8 << 20

    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe the test writes with ``write(_:)`` and ends with ``closeInput()``.
        case pipe
    }

    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// A pipe drained into memory while the child runs, up to ``ChildProcess/capturedLimit``.
        case capture
        /// `/dev/null`.
        case discard
        /// A file, created or truncated (mode 0600).
        case file(String)
    }

    /// How the child ended and what it printed.
    public struct Termination: Sendable {
        /// The exit status, or nil when a signal ended the child.
        public var status: Int32?
        /// The signal that ended the child, or nil when it exited.
        public var signal: Int32?
        public var output: Data
        public var error: Data
        /// How many bytes of standard output were read past ``ChildProcess/capturedLimit`` and not
        /// kept; 0 when ``output`` is all the child printed there.
        public var outputDropped: Int
        /// How many bytes of standard error were read past ``ChildProcess/capturedLimit`` and not
        /// kept; 0 when ``error`` is all of it.
        public var errorDropped: Int
        /// The child's peak resident memory, from `wait4`'s `ru_maxrss`: an upper bound only.
        ///
        /// On Linux the spawn shares the test process's memory until the exec (glibc's
        /// `posix_spawn` is a vfork), and the exec records that memory's high-water mark as the
        /// child's, so a child of a large test process reports at least the test process's peak.
        public var peakResidentKilobytes: Int

        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// Why a wait ended without what it waited for.
    public enum Failure: Error, CustomStringConvertible {
        case couldNotStart(command: String, code: Int32)
        case timedOut(command: String, waitingFor: String, after: Duration, output: String, error: String)
        case endedWithoutLine(command: String, output: String, error: String)

        public var description: String {
            switch self {
            case .couldNotStart(let command, let code):
                return "could not start \(command): \(String(cString: strerror(code)))"
            case .timedOut(let command, let what, let after, let output, let error):
                return "\(command): no \(what) within \(after); it printed '\(output.suffix(2000))', "
                    + "and on stderr '\(error.suffix(2000))'"
            case .endedWithoutLine(let command, let output, let error):
                return "\(command) ended before printing a line: '\(output)' '\(error.suffix(2000))'"
            }
        }
    }

    /// The child's process id; also its process group's.
    public let pid: pid_t
    /// The command, for messages.
    public let command: String
    private let shared = Shared()

    /// Starts `executable` (an absolute path) with `arguments` and exactly `environment`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil, input: Input = .null, output: Output = .capture, error: Output = .capture
    ) throws {
        command = ([executable] + arguments).joined(separator: " ")
        var ends = SpawnEnds()
        defer { ends.closeChildSides() }
        do {
            try ends.prepare(input: input, output: output, error: error)
            pid = try Self.spawn(
                executable, arguments, environment: environment, directory: directory, ends: ends, command: command)
        } catch {
            ends.closeParentSides()
            throw error
        }
        shared.input.withLock { $0 = ends.inputWriter }
        let child = Monitored(
            pid: pid, command: command, output: ends.outputReader, error: ends.errorReader, exited: ends.exitReader)
        // The thread holds the shared state, not this object, so a child its test let go of is killed.
        let shared = self.shared
        let thread = Thread { Self.monitor(child, shared) }
        thread.name = "child \(pid)"
        thread.start()
        let (pid, exitWriter) = (pid, ends.exitWriter)
        let exit = Thread { Self.signalExit(of: pid, closing: exitWriter) }
        exit.name = "child \(pid) exit"
        exit.start()
    }

    deinit {
        if shared.state.withLock({ $0.reaped == nil }) { kill(-pid, SIGKILL) }
        closeInput()
    }

    /// Whether the child has not been reaped yet.
    public var isRunning: Bool { shared.state.withLock { $0.reaped == nil } }

    /// How many waits on the child have begun and not ended: a test sees its wait begin.
    public var pendingWaits: Int { shared.state.withLock { $0.waiters.count } }

    /// What the child printed on standard output so far.
    public var outputSoFar: String { shared.state.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// What the child printed on standard error so far.
    public var errorSoFar: String { shared.state.withLock { String(decoding: $0.error, as: UTF8.self) } }

    /// Sends `signal` to the child (and only to it).
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Writes to the child's standard input pipe.
    public func write(_ data: Data) {
        shared.input.withLock { fd in
            guard fd >= 0 else { return }
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }

    /// Closes the child's standard input pipe, which the child reads as end of file.
    public func closeInput() {
        shared.input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Waits for the child to exit and to close its output, at most `timeout`.
    ///
    /// At the timeout the child's process group is killed and the wait fails: a child that never
    /// exits, or whose output a process it started keeps open, is a failure, never a hang.
    public func wait(timeout: Duration) async throws -> Termination {
        let seen = try await until("its end", timeout: timeout, killing: true) { $0.finished }
        return seen.termination
    }

    /// The first line the child prints on standard output, waiting at most `timeout` for it.
    public func firstLine(timeout: Duration) async throws -> String {
        let seen = try await until("first line", timeout: timeout, killing: false) {
            $0.output.contains(UInt8(ascii: "\n")) || $0.finished
        }
        guard let end = seen.output.firstIndex(of: UInt8(ascii: "\n")) else {
            throw Failure.endedWithoutLine(command: command, output: seen.outputText, error: seen.errorText)
        }
        return String(decoding: seen.output[..<end], as: UTF8.self)
    }

    /// Waits until the child's output so far satisfies `condition`, at most `timeout`.
    public func output(
        timeout: Duration, where condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await until(\.output, "the expected output", timeout: timeout, condition)
    }

    /// Waits until what the child wrote to stderr so far satisfies `condition`, at most `timeout`.
    public func errorOutput(
        timeout: Duration, where condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await until(\.error, "the expected error output", timeout: timeout, condition)
    }

    /// Waits until the text of one of the child's streams satisfies `condition` (or the child
    /// ended), at most `timeout`, and answers that text.
    private func until(
        _ stream: any KeyPath<Seen, Data> & Sendable, _ what: String, timeout: Duration,
        _ condition: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let seen = try await until(what, timeout: timeout, killing: false) {
            condition(String(decoding: $0[keyPath: stream], as: UTF8.self)) || $0.finished
        }
        return String(decoding: seen[keyPath: stream], as: UTF8.self)
    }

    /// Ends the child: SIGTERM, then SIGKILL to its process group after `grace`; waits at most
    /// `grace` plus five seconds in all.
    @discardableResult
    public func stop(grace: Duration = .seconds(5)) async -> Termination? {
        closeInput()
        send(SIGTERM)
        if let ended = try? await until("its end", timeout: grace, killing: false, { $0.finished }) {
            return ended.termination
        }
        kill(-pid, SIGKILL)
        return try? await wait(timeout: .seconds(5))
    }

    private func until(
        _ what: String, timeout: Duration, killing: Bool, _ condition: @escaping @Sendable (Seen) -> Bool
    ) async throws -> Seen {
        let id = shared.state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = Waiter(
                    id: id, what: what, timeout: timeout, deadline: deadline, killing: killing, condition: condition,
                    continuation: continuation)
                let ready: Result<Seen, any Error>? = shared.state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    let seen = state.seen
                    if condition(seen) { return .success(seen) }
                    state.waiters.append(waiter)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = shared.state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif
