import CPOSIXShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls of the server, with what differs between Linux and Darwin in one place.
///
/// Every descriptor is close-on-exec from the moment it exists where the system allows it (on
/// Linux: `SOCK_CLOEXEC`, and `accept4` and `pipe2` through `CPOSIXShims`), so a child process
/// started by another thread never inherits a connection and holds it open. Every descriptor is
/// non-blocking: each wait is a `poll` with a deadline. No write raises SIGPIPE (`MSG_NOSIGNAL`
/// on Linux, `SO_NOSIGPIPE` on Darwin), so a client that goes away is an error code, not the end
/// of the process.
enum POSIX {
    /// What a wait for a descriptor came to.
    enum Readiness {
        /// The descriptor is ready, or has an error or a hang-up the next call will report.
        case ready
        /// The deadline passed first.
        case timedOut
        /// `poll` itself failed: nothing more can be waited for.
        case failed
    }

    /// The flags of every `send`.
    static let sendFlags: Int32 = {
        #if os(Linux)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }()

    /// A new TCP socket of `family`, or -1 with `errno` set.
    static func streamSocket(family: Int32) -> Int32 {
        #if os(Linux)
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        #else
        return configured(socket(family, SOCK_STREAM, 0))
        #endif
    }

    /// The next connection waiting on `listener`, or -1 with `errno` set.
    static func accept(_ listener: Int32) -> Int32 {
        #if os(Linux)
        return gitbay_accept(listener)
        #else
        return withoutSIGPIPE(gitbay_accept(listener))
        #endif
    }

    /// A new pipe, or nil with `errno` set.
    static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard gitbay_pipe(&ends, 1) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    /// Waits until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`), at most until `deadline`.
    static func wait(
        _ descriptor: Int32, for events: Int32, until deadline: ContinuousClock.Instant
    ) -> Readiness {
        var entry = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        while true {
            let now = ContinuousClock.now
            guard now < deadline else { return .timedOut }
            let ready = poll(&entry, 1, milliseconds(deadline - now))
            if ready > 0 { return .ready }
            if ready < 0 && errno != EINTR && errno != EAGAIN { return .failed }
        }
    }

    /// `duration` in whole milliseconds for `poll`, rounded up so a wait never ends early, and at
    /// most `Int32.max`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let whole = seconds.multipliedReportingOverflow(by: 1000)
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        guard !whole.overflow, whole.partialValue < Int64(Int32.max) - fraction else { return Int32.max }
        return Int32(whole.partialValue + fraction)
    }

    #if !os(Linux)
    /// `descriptor` made close-on-exec, non-blocking and free of SIGPIPE, or -1 when it is -1.
    private static func configured(_ descriptor: Int32) -> Int32 {
        guard descriptor >= 0 else { return descriptor }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return withoutSIGPIPE(descriptor)
    }

    /// `descriptor` made free of SIGPIPE, or -1 when it is -1.
    ///
    /// Darwin has no `MSG_NOSIGNAL`, so the socket itself is told not to raise it.
    private static func withoutSIGPIPE(_ descriptor: Int32) -> Int32 {
        guard descriptor >= 0 else { return descriptor }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }
    #endif
}
