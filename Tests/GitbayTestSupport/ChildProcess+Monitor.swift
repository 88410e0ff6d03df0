import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread of each child that drains its output, reaps it and wakes its waiters, and the state
/// it shares with them.
extension ChildProcess {
    /// Blocks until the child has exited, without reaping it (the monitor does), then closes
    /// `writer`: the end of file the monitor's poll wakes on.
    ///
    /// A thread of its own, since no one descriptor tells of a child's exit on both Linux (a pidfd)
    /// and Darwin (a kqueue); `waitid` fails at once if the monitor has reaped the child already.
    static func signalExit(of pid: pid_t, closing writer: Int32) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        close(writer)
    }

    /// The child's own thread: drains its pipes, reaps it and wakes the waiters whose condition
    /// holds or whose time is up, until the child has exited and closed its output.
    ///
    /// It sleeps in `poll` on the child's output and on the end of ``signalExit(of:closing:)``'s
    /// pipe; the poll's 20 ms timeout is the tick at which the waiters' deadlines are checked.
    static func monitor(_ child: Monitored, _ shared: Shared) {
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
}

extension ChildProcess {
    /// The state the child's thread and the callers share, apart from the ``ChildProcess`` itself.
    final class Shared: Sendable {
        let state = Mutex(MonitorState())
        let input = Mutex<Int32>(-1)
    }

    /// What the monitor thread has seen of the child.
    struct Seen: Sendable {
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
    struct Waiter: Sendable {
        var id: Int
        var what: String
        var timeout: Duration
        var deadline: ContinuousClock.Instant
        var killing: Bool
        var condition: @Sendable (Seen) -> Bool
        var continuation: CheckedContinuation<Seen, any Error>
    }

    /// What the child's thread and its waiters share.
    struct MonitorState: Sendable {
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
    struct Monitored: Sendable {
        var pid: pid_t
        var command: String
        var output: Int32
        var error: Int32
        /// The read end of the pipe whose end of file says the child has exited.
        var exited: Int32
    }
}
