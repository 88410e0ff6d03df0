import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test's client: raw bytes over a real socket, every wait bounded.
///
/// Its calls block their thread, so tests make them inside ``offPool(_:)``, never on the
/// cooperative pool the other suites run on.
public final class RawClient: Sendable {
    /// How a read to the end came out.
    public enum Ending: Equatable, Sendable {
        /// The server closed the connection cleanly.
        case endOfFile
        /// The connection was reset (or failed otherwise).
        case reset
        /// The deadline passed with the connection still open.
        case timedOut
    }

    /// Why a client could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The longest a connect or a blocking send waits.
    public static let sendTimeout = 20

    public let descriptor: Int32

    /// A connection to `host` (an IP literal) and `port`; `receiveBuffer` shrinks the socket's
    /// receive buffer (before the connect, so the window is small from the start).
    ///
    /// The socket is the client's only once connected: a class whose throwing initializer has set
    /// every property is deinitialized, and a second close of a failed socket's number could close
    /// whatever another thread opened under it meanwhile (another test's server).
    public init(port: Int, host: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        let isIPv6 = host.contains(":")
        #if os(Linux)
        let fd = try closeOnExecSocket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue))
        #else
        let fd = try closeOnExecSocket(isIPv6 ? AF_INET6 : AF_INET, SOCK_STREAM)
        #endif
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: Self.sendTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var bytes = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        let connected: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to \(host) port \(port): \(reason)")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`; answers false when the connection refused it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    /// Sends all of `bytes` (waiting at most ``sendTimeout`` for room); answers false when the
    /// connection refused them.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Self.noSignal)
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Waits at most `timeout` for bytes to read; answers whether there are some (or the end).
    public func readable(within timeout: Duration) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            let ready = poll(&entry, 1, Int32(milliseconds + 1))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
        return false
    }

    /// Reads until the server closes the connection, at most `timeout`; answers what was read and
    /// how the read ended.
    public func readToEnd(timeout: Duration) -> (bytes: [UInt8], ending: Ending) {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard readable(within: deadline - ContinuousClock.now) else { return (bytes, .timedOut) }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 {
                return (bytes, .endOfFile)
            } else if errno != EINTR {
                return (bytes, .reset)
            }
        }
    }

    /// Writes `chunk` over and over without ever waiting for room, reading what comes back, until
    /// the server closes the connection, `limit` bytes are written or `timeout` passes; answers
    /// what was read, how many bytes were written, and whether the server closed the connection.
    public func flood(
        with chunk: [UInt8], limit: Int, timeout: Duration
    ) -> (received: [UInt8], sent: Int, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while sent < limit && ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN | POLLOUT), revents: 0)
            guard poll(&entry, 1, 100) >= 0 || errno == EINTR else { return (received, sent, true) }
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    received += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    return (received, sent, true)
                }
            }
            if entry.revents & Int16(POLLOUT) != 0 {
                let count = chunk.withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Self.noSignal | Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    sent += count
                } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    return (received, sent, true)
                }
            }
        }
        return (received, sent, false)
    }

    #if os(Linux)
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let noSignal: Int32 = 0
    #endif

    /// Connects to `port`, sends `request` and reads the whole answer, at most `timeout` in all.
    public static func exchange(
        _ request: String, port: Int, host: String = "127.0.0.1", timeout: Duration = .seconds(20)
    ) throws -> (response: ParsedResponse?, raw: [UInt8], ending: Ending) {
        let client = try RawClient(port: port, host: host)
        client.write(request)
        let (bytes, ending) = client.readToEnd(timeout: timeout)
        return (ParsedResponse(bytes), bytes, ending)
    }
}
