#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls of the server, with what differs between Linux and Darwin in one place.
///
/// Every descriptor is close-on-exec from the moment it exists where the system allows it (on
/// Linux: `SOCK_CLOEXEC`, `accept4`, `pipe2`), so a child process started by another thread
/// never inherits a connection and holds it open. Every descriptor is non-blocking: each wait
/// is a `poll` with a deadline. No write raises SIGPIPE (`MSG_NOSIGNAL` on Linux,
/// `SO_NOSIGPIPE` on Darwin), so a client that goes away is an error code, not the end of the
/// process.
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
        return GNU.accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue))
        #else
        return configured(Darwin.accept(listener, nil, nil))
        #endif
    }

    /// A new pipe, or nil with `errno` set.
    static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        #if os(Linux)
        guard ends.withUnsafeMutableBufferPointer({ GNU.pipe2($0.baseAddress!, O_CLOEXEC | O_NONBLOCK) }) == 0 else {
            return nil
        }
        #else
        guard Darwin.pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        #endif
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

    #if os(Linux)
    /// The GNU extensions Swift's Glibc module does not import, found at run time.
    private enum GNU {
        typealias Accept4 =
            @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

        static let accept4 = symbol("accept4", as: Accept4.self)
        static let pipe2 = symbol("pipe2", as: Pipe2.self)

        private static func symbol<T>(_ name: String, as type: T.Type) -> T {
            guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else {
                fatalError("the C library has no \(name) (glibc 2.10 or later has it)")
            }
            return unsafeBitCast(address, to: type)
        }
    }
    #else
    /// `descriptor` made close-on-exec, non-blocking and free of SIGPIPE, or -1 when it is -1.
    private static func configured(_ descriptor: Int32) -> Int32 {
        guard descriptor >= 0 else { return descriptor }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }
    #endif
}
