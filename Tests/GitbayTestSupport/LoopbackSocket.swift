import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw TCP connection to a port on 127.0.0.1, for tests that misbehave as HTTP clients do: say
/// nothing, send an endless header, or speak a method no server should take.
///
/// Every read waits at most its timeout; the socket is close-on-exec and never raises SIGPIPE.
public final class LoopbackSocket: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        #if os(Linux)
        descriptor = try closeOnExecSocket(AF_INET, Int32(SOCK_STREAM.rawValue))
        #else
        descriptor = try closeOnExecSocket(AF_INET, SOCK_STREAM)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            closeDescriptor(descriptor)
            throw StandInError("connect 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { closeDescriptor(descriptor) }

    /// Sends `bytes`; `false` once the peer has closed or reset the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Everything the peer sends until it closes, at most `timeout` in all; `nil` at the timeout.
    public func readToEnd(timeout: Duration) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000, 1000))
            guard poll(&poller, 1, max(milliseconds, 1)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return received }
            received += buffer[0..<count]
        }
    }
}

/// A socket of `domain` and `type` that no child process inherits.
func closeOnExecSocket(_ domain: Int32, _ type: Int32) throws -> Int32 {
    #if os(Linux)
    let descriptor = socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let descriptor = socket(domain, type, 0)
    if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    #endif
    guard descriptor >= 0 else { throw StandInError("socket: \(String(cString: strerror(errno)))") }
    return descriptor
}

/// `close(2)`, under a name that no type's own `close()` hides.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
