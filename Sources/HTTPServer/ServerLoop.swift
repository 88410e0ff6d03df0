import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's threads and descriptors: the accept thread, a thread per connection served, and
/// what `stop()` needs to end them all.
///
/// The accept thread owns the listening socket and both ends of the wake-up pipe and closes them
/// as it leaves; each connection thread closes its own connection. Descriptors are closed under
/// the lock that `stop()` takes to write the pipe and shut the connections down, so `stop()`
/// never touches a descriptor number that was closed and reused.
///
/// Nothing here waits for the threads on the caller's thread: `stop()` only signals them, and
/// `stopped()` suspends until the last thread to end resumes it from that thread, so a stop never
/// holds a thread of Swift's cooperative pool (two on two cores) while connections wind down.
final class ServerLoop: Sendable {
    private struct State {
        var stopping = false
        /// Whether the accept thread still holds the listening socket and the pipe.
        var listening = true
        /// The descriptors of the connections being served.
        var connections: Set<Int32> = []
        var runningThreads = 0
        var largestHeadHeld = 0
        /// The callers of `stopped()` suspended until the last thread ends.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The most connections taken per wake-up, so a flood cannot keep the accept thread from `stop()`.
    private static let acceptsPerWake = 64
    /// The pause after the system refused a connection for want of descriptors or memory: the
    /// connection stays pending, and polling again at once would spin.
    private static let pauseMicroseconds: useconds_t = 100_000

    private let listener: Int32
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let limits: HTTPServer.Limits
    private let bodyRoutes: [HTTPServer.BodyRoute]
    private let handler: HTTPServer.Handler
    private let state = Mutex(State())

    init(
        listener: Int32, wake: (read: Int32, write: Int32), limits: HTTPServer.Limits,
        bodyRoutes: [HTTPServer.BodyRoute], handler: @escaping HTTPServer.Handler
    ) {
        self.listener = listener
        (wakeReader, wakeWriter) = wake
        self.limits = limits
        self.bodyRoutes = bodyRoutes
        self.handler = handler
    }

    /// Starts the accept thread.
    func start() {
        state.withLock { state in
            state.runningThreads += 1
        }
        spawn("http-server accept") { self.acceptLoop() }
    }

    /// Stops accepting and shuts every connection down, without waiting for the threads to end.
    func stop() {
        state.withLock { state in
            guard !state.stopping else { return }
            state.stopping = true
            if state.listening {
                var byte: UInt8 = 1
                _ = write(wakeWriter, &byte, 1)
            }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// Returns once every thread of the server has ended (at once when none runs), suspending
    /// rather than blocking: the last thread to end resumes it.
    func stopped() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state -> Bool in
                guard state.runningThreads > 0 else { return true }
                state.waiters.append(waiter)
                return false
            }
            if ended { waiter.resume() }
        }
    }

    /// The most bytes of a request head a connection held at once: never above `maxHeadBytes`.
    var largestHeadHeld: Int { state.withLock { $0.largestHeadHeld } }

    /// The server's threads that have not ended.
    var runningThreads: Int { state.withLock { $0.runningThreads } }

    /// The descriptors the server holds open.
    var openDescriptors: [Int32] {
        state.withLock { state in
            (state.listening ? [listener, wakeReader, wakeWriter] : []) + state.connections.sorted()
        }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }

    /// Takes connections until `stop()` writes the wake-up pipe, then closes the listening socket
    /// and the pipe.
    private func acceptLoop() {
        var watched = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&watched, nfds_t(watched.count), -1)
            let failure = ready < 0 ? errno : 0
            if watched[1].revents != 0 || state.withLock({ $0.stopping }) { break }
            if failure != 0 && failure != EINTR && failure != EAGAIN {
                usleep(Self.pauseMicroseconds)
            } else if watched[0].revents != 0 && !acceptPending() {
                usleep(Self.pauseMicroseconds)
            }
        }
        state.withLock { state in
            state.listening = false
            close(listener)
            close(wakeReader)
            close(wakeWriter)
        }
        threadEnded()
    }

    /// Takes the pending connections (at most `acceptsPerWake`); answers false when the system
    /// refused one for want of descriptors or memory.
    private func acceptPending() -> Bool {
        for _ in 0..<Self.acceptsPerWake {
            let connection = POSIX.accept(listener)
            guard connection < 0 else {
                admit(connection)
                continue
            }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK { return true }
            if code != EINTR && code != ECONNABORTED { return false }
        }
        return true
    }

    /// Serves `connection` on a thread of its own, or refuses it with 503 when `maxConnections`
    /// are being served, or closes it when the server is stopping.
    private func admit(_ connection: Int32) {
        let acceptedAt = ContinuousClock.now
        let admitted = state.withLock { state -> Bool? in
            guard !state.stopping else { return nil }
            guard state.connections.count < limits.maxConnections else { return false }
            state.connections.insert(connection)
            state.runningThreads += 1
            return true
        }
        switch admitted {
        case true?:
            let served = Connection(
                descriptor: connection, acceptedAt: acceptedAt, limits: limits, bodyRoutes: bodyRoutes,
                handler: handler)
            spawn("http-server connection") { self.finish(connection, holding: served.serve()) }
        case false?:
            refuse(connection)
        case nil:
            close(connection)
        }
    }

    /// Closes a served connection and frees its place.
    private func finish(_ connection: Int32, holding headBytes: Int) {
        state.withLock { state in
            state.connections.remove(connection)
            close(connection)
            state.largestHeadHeld = max(state.largestHeadHeld, headBytes)
        }
        threadEnded()
    }

    /// Counts a thread out; the last one resumes the callers of `stopped()`, outside the lock.
    private func threadEnded() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runningThreads -= 1
            guard state.runningThreads == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Answers 503 with `Retry-After: 1` without waiting, and closes the connection.
    ///
    /// What the client already sent is read (without waiting) before the close, so the close is an
    /// end of file rather than a reset that could destroy the 503 before the client reads it.
    private func refuse(_ connection: Int32) {
        var refusal = HTTPServer.Response.text(
            "busy: \(limits.maxConnections) connections are being served; retry in a second\n", status: 503)
        refusal.headers.append(HTTPServer.Header("Retry-After", "1"))
        Connection.sendAtOnce(refusal.encoded(withBody: true), to: connection)
        shutdown(connection, Int32(SHUT_WR))
        var chunk = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 {
            guard chunk.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 else { break }
        }
        close(connection)
    }
}
