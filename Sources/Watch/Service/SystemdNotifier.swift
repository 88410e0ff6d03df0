import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a watcher reports its state to a service manager: `READY=1`, `STATUS=...`,
/// `WATCHDOG=1`, `STOPPING=1`.
public protocol ServiceNotifier: Sendable {
    /// How often the manager expects `WATCHDOG=1`, `nil` when it watches nothing.
    var watchdogInterval: Duration? { get }
    /// Sends `assignments` (`KEY=value`, one per line) as one message; a lost message is not an error.
    func notify(_ assignments: [String])
}

/// systemd's notification protocol, without libsystemd: each message is one datagram to the Unix
/// socket named by `NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace).
///
/// systemd sets `NOTIFY_SOCKET` for a `Type=notify` unit, and `WATCHDOG_USEC` (with
/// `WATCHDOG_PID`) when the unit has `WatchdogSec=`; a process that is not the one watched
/// ignores the watchdog. See sd_notify(3).
public struct SystemdNotifier: ServiceNotifier {
    public let socketPath: String
    public let watchdogInterval: Duration?

    /// The notifier `environment` asks for, `nil` when it names no socket (not run by systemd, or
    /// not as `Type=notify`).
    public init?(environment: [String: String], pid: Int32 = getpid()) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@") else {
            return nil
        }
        socketPath = path
        let watched = environment["WATCHDOG_PID"].map { Int32($0) == pid } ?? true
        if watched, let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 {
            watchdogInterval = .microseconds(micros)
        } else {
            watchdogInterval = nil
        }
    }

    public func notify(_ assignments: [String]) {
        let message = Array(assignments.joined(separator: "\n").utf8)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // An abstract socket's name starts with a NUL byte where `@` is written, and has no end mark.
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + path.count + (abstract ? 0 : 1)
        #if os(Linux)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let flags: Int32 = 0
        #endif
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = message.withUnsafeBytes { body in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, body.baseAddress, body.count, flags, $0, socklen_t(length))
                }
            }
        }
    }
}
