import CPOSIXShims
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

    /// Blocks until the child has exited, without reaping it (the monitor does), then closes
    /// `writer`: the end of file the monitor's poll wakes on.
    ///
    /// A thread of its own, since no one descriptor tells of a child's exit on both Linux (a pidfd)
    /// and Darwin (a kqueue); `waitid` fails at once if the monitor has reaped the child already.
    private static func signalExit(of pid: pid_t, closing writer: Int32) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        close(writer)
    }

    /// The child's own thread: drains its pipes, reaps it and wakes the waiters whose condition
    /// holds or whose time is up, until the child has exited and closed its output.
    ///
    /// It sleeps in `poll` on the child's output and on the end of ``signalExit(of:closing:)``'s
    /// pipe; the poll's 20 ms timeout is the tick at which the waiters' deadlines are checked.
    private static func monitor(_ child: Monitored, _ shared: Shared) {
        let pid = child.pid
        var readers = [child.output, child.error]
        var exited = child.exited
        var abandonedAt: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var polled = (readers + [exited]).filter { $0 >= 0 }.map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&polled, nfds_t(polled.count), 20)
            if exited >= 0, polled.contains(where: { $0.fd == exited && $0.revents != 0 }) {
                close(exited)
                exited = -1
            }
            var chunks: [(index: Int, bytes: [UInt8])] = []
            for (index, fd) in readers.enumerated() where fd >= 0 {
                guard let entry = polled.first(where: { $0.fd == fd }), entry.revents != 0 else { continue }
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    chunks.append((index, Array(buffer[0..<count])))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fd)
                    readers[index] = -1
                }
            }
            var reaped: (status: Int32, usage: rusage)?
            if shared.state.withLock({ $0.reaped == nil }) {
                var status: Int32 = 0
                var usage = rusage()
                if wait4(pid, &status, WNOHANG, &usage) == pid { reaped = (status, usage) }
            }
            let now = ContinuousClock.now
            let (ready, late, done) = shared.state.withLock { state in
                for chunk in chunks {
                    if chunk.index == 0 {
                        Self.keep(chunk.bytes, in: &state.output, dropping: &state.outputDropped)
                    } else {
                        Self.keep(chunk.bytes, in: &state.error, dropping: &state.errorDropped)
                    }
                }
                if let reaped { state.reaped = reaped }
                state.outputEnded = readers[0] < 0
                state.errorEnded = readers[1] < 0
                let seen = state.seen
                var ready: [(Waiter, Seen)] = []
                var late: [Waiter] = []
                state.waiters.removeAll { waiter in
                    if waiter.condition(seen) {
                        ready.append((waiter, seen))
                        return true
                    }
                    if now >= waiter.deadline {
                        late.append(waiter)
                        return true
                    }
                    return false
                }
                return (ready, late, seen.finished)
            }
            for (waiter, seen) in ready { waiter.continuation.resume(returning: seen) }
            for waiter in late {
                if waiter.killing {
                    kill(-pid, SIGKILL)
                    abandonedAt = abandonedAt ?? now
                }
                let seen = shared.state.withLock { $0.seen }
                waiter.continuation.resume(
                    throwing: Failure.timedOut(
                        command: child.command, waitingFor: waiter.what, after: waiter.timeout,
                        output: seen.outputText, error: seen.errorText))
            }
            if done { break }
            // Killed after a timeout and reaped, but a process outside its group still holds its
            // output: stop reading, so this thread and the descriptors do not outlive the test.
            if let abandonedAt, now - abandonedAt > .seconds(2), shared.state.withLock({ $0.reaped != nil }) {
                for fd in readers where fd >= 0 { close(fd) }
                readers = [-1, -1]
            }
        }
        // Reaped at a tick before the exit's end of file came.
        if exited >= 0 { close(exited) }
    }

    /// Appends to `kept` what of `bytes` fits under ``capturedLimit``, and counts the rest in `dropped`.
    private static func keep(_ bytes: [UInt8], in kept: inout Data, dropping dropped: inout Int) {
        let room = max(0, capturedLimit - kept.count)
        kept.append(contentsOf: bytes.prefix(room))
        dropped += max(0, bytes.count - room)
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String?,
        ends: SpawnEnds, command: String
    ) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        ends.addActions(&actions)
        var flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #if canImport(Darwin)
        if let directory { _ = posix_spawn_file_actions_addchdir_np(&actions, directory) }
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        if let directory { _ = gitbay_spawn_addchdir(&actions, directory) }
        _ = gitbay_spawn_addclosefrom(&actions, 3)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // Signals an in-process run may have caught or ignored start at their defaults in the child.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure.couldNotStart(command: command, code: result) }
        return pid
    }
}

extension ChildProcess {
    /// The state the child's thread and the callers share, apart from the ``ChildProcess`` itself.
    fileprivate final class Shared: Sendable {
        let state = Mutex(MonitorState())
        let input = Mutex<Int32>(-1)
    }

    /// What the monitor thread has seen of the child.
    fileprivate struct Seen: Sendable {
        var output: Data
        var error: Data
        var outputDropped: Int
        var errorDropped: Int
        var reaped: (status: Int32, usage: rusage)?
        var outputEnded: Bool
        var errorEnded: Bool

        var finished: Bool { reaped != nil && outputEnded && errorEnded }
        var outputText: String { String(decoding: output, as: UTF8.self) }
        var errorText: String { String(decoding: error, as: UTF8.self) }

        var termination: Termination {
            let status = reaped?.status ?? 0
            let signalled = status & 0x7f != 0
            #if os(Linux)
            let kilobytes = reaped?.usage.ru_maxrss ?? 0
            #else
            let kilobytes = (reaped?.usage.ru_maxrss ?? 0) / 1024
            #endif
            return Termination(
                status: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil,
                output: output, error: error, outputDropped: outputDropped, errorDropped: errorDropped,
                peakResidentKilobytes: kilobytes)
        }
    }

    /// One suspended caller: what it waits for and until when.
    fileprivate struct Waiter: Sendable {
        var id: Int
        var what: String
        var timeout: Duration
        var deadline: ContinuousClock.Instant
        var killing: Bool
        var condition: @Sendable (Seen) -> Bool
        var continuation: CheckedContinuation<Seen, any Error>
    }

    /// What the child's thread and its waiters share.
    fileprivate struct MonitorState: Sendable {
        var output = Data()
        var error = Data()
        var outputDropped = 0
        var errorDropped = 0
        var reaped: (status: Int32, usage: rusage)?
        var outputEnded = false
        var errorEnded = false
        var waiters: [Waiter] = []
        var cancelled: Set<Int> = []
        var nextWaiter = 0

        var seen: Seen {
            Seen(
                output: output, error: error, outputDropped: outputDropped, errorDropped: errorDropped,
                reaped: reaped, outputEnded: outputEnded, errorEnded: errorEnded)
        }
    }

    /// The parent's ends of the child's pipes, handed to its thread.
    fileprivate struct Monitored: Sendable {
        var pid: pid_t
        var command: String
        var output: Int32
        var error: Int32
        /// The read end of the pipe whose end of file says the child has exited.
        var exited: Int32
    }
}

/// The descriptors a spawn hands the child, and the parent's ends of its pipes.
private struct SpawnEnds {
    /// What the child gets as 0, 1 and 2: a descriptor to duplicate, or a path to open.
    enum Slot {
        case descriptor(Int32)
        case path(String, flags: Int32)
    }

    var slots: [Slot] = []
    var childSides: [Int32] = []
    var inputWriter: Int32 = -1
    var outputReader: Int32 = -1
    var errorReader: Int32 = -1
    /// The pipe whose end of file tells the monitor the child has exited; the child has neither end.
    var exitReader: Int32 = -1
    var exitWriter: Int32 = -1

    mutating func prepare(input: ChildProcess.Input, output: ChildProcess.Output, error: ChildProcess.Output) throws {
        (exitReader, exitWriter) = try Self.pipe()
        switch input {
        case .null:
            slots.append(.path("/dev/null", flags: O_RDONLY))
        case .pipe:
            let (read, write) = try Self.pipe()
            childSides.append(read)
            inputWriter = write
            slots.append(.descriptor(read))
        }
        outputReader = try add(output)
        errorReader = try add(error)
    }

    private mutating func add(_ output: ChildProcess.Output) throws -> Int32 {
        switch output {
        case .capture:
            let (read, write) = try Self.pipe()
            childSides.append(write)
            slots.append(.descriptor(write))
            return read
        case .discard:
            slots.append(.path("/dev/null", flags: O_WRONLY))
        case .file(let path):
            slots.append(.path(path, flags: O_WRONLY | O_CREAT | O_TRUNC))
        }
        return -1
    }

    #if canImport(Darwin)
    typealias Actions = posix_spawn_file_actions_t?
    #else
    typealias Actions = posix_spawn_file_actions_t
    #endif

    func addActions(_ actions: inout Actions) {
        for (target, slot) in slots.enumerated() {
            switch slot {
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, Int32(target))
            case .path(let path, let flags):
                posix_spawn_file_actions_addopen(&actions, Int32(target), path, flags, 0o600)
            }
        }
    }

    /// The parent's sides, when the spawn failed.
    func closeParentSides() {
        for fd in [inputWriter, outputReader, errorReader, exitReader, exitWriter] where fd >= 0 { close(fd) }
    }

    /// The child's sides are its own once it is spawned (or useless if it was not).
    mutating func closeChildSides() {
        for fd in childSides { close(fd) }
        childSides = []
    }

    /// A pipe whose both ends are close-on-exec from the start.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard gitbay_pipe(&fds, 0) == 0 else {
            throw ChildProcess.Failure.couldNotStart(command: "pipe", code: errno)
        }
        return (fds[0], fds[1])
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif
