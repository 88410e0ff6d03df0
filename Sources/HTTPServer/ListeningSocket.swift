#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's listening socket: bound with `SO_REUSEADDR` (a restarted bot gets its port back
/// while the old connections linger in TIME_WAIT), close-on-exec and non-blocking.
enum ListeningSocket {
    /// How many finished handshakes the kernel keeps for the accept thread; it takes them at once
    /// and answers those beyond the connection limit with 503, so few ever wait.
    private static let backlog: Int32 = 32

    /// A socket listening on `address`, and the port it is bound to.
    static func open(on address: ListenAddress) throws(HTTPServerError) -> (descriptor: Int32, port: Int) {
        let failure = { (reason: String) in HTTPServerError("cannot listen on \(address): \(reason)") }
        guard let ip = IPAddress(address.host) else {
            throw failure("\(HTTPServerError.quoted(address.host)) is not an IP address")
        }
        guard (0...65535).contains(address.port) else { throw failure("the port is not from 0 to 65535") }
        let descriptor = POSIX.streamSocket(family: ip.isIPv6 ? AF_INET6 : AF_INET)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        var one: Int32 = 1
        var storage = sockaddr_storage()
        let length = fill(&storage, ip: ip, port: UInt16(address.port))
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let succeeded = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
                    && bind(descriptor, socketAddress, length) == 0
                    && listen(descriptor, backlog) == 0
                    && getsockname(descriptor, socketAddress, &boundLength) == 0
            }
        }
        guard succeeded else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw failure(reason)
        }
        return (descriptor, Int(port(of: storage)))
    }

    /// Fills `storage` with the socket address of `ip` and `port`, and answers its length.
    private static func fill(_ storage: inout sockaddr_storage, ip: IPAddress, port: UInt16) -> socklen_t {
        withUnsafeMutableBytes(of: &storage) { raw in
            if ip.isIPv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: ip.bytes) }
                withUnsafeBytes(of: &address) { raw.copyBytes(from: $0) }
                return socklen_t(MemoryLayout<sockaddr_in6>.size)
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: ip.bytes) }
            withUnsafeBytes(of: &address) { raw.copyBytes(from: $0) }
            return socklen_t(MemoryLayout<sockaddr_in>.size)
        }
    }

    /// The port of the IPv4 or IPv6 socket address in `storage`.
    private static func port(of storage: sockaddr_storage) -> UInt16 {
        withUnsafeBytes(of: storage) { raw in
            if Int32(raw.load(as: sockaddr.self).sa_family) == AF_INET6 {
                return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            }
            return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
    }
}
