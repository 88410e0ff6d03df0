import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for servers a test starts: whether one is free, and one that is.
public enum FreePort {
    /// Whether a server could listen on 127.0.0.1 at `port` now, as the simulator does
    /// (`SO_REUSEADDR`, so a connection of the last run in TIME_WAIT does not hold the port).
    public static func canListen(on port: Int) -> Bool {
        #if os(Linux)
        guard let descriptor = try? closeOnExecSocket(AF_INET, Int32(SOCK_STREAM.rawValue)) else { return false }
        #else
        guard let descriptor = try? closeOnExecSocket(AF_INET, SOCK_STREAM) else { return false }
        #endif
        defer { closeDescriptor(descriptor) }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }

    /// A port on 127.0.0.1 that nothing listens on now, as the kernel picks one for port 0.
    ///
    /// Free when this returns; a test that hands it to a server it starts at once may, rarely,
    /// find it taken meanwhile, which that server's start reports.
    public static func pick() throws -> Int {
        #if os(Linux)
        let descriptor = try closeOnExecSocket(AF_INET, Int32(SOCK_STREAM.rawValue))
        #else
        let descriptor = try closeOnExecSocket(AF_INET, SOCK_STREAM)
        #endif
        defer { closeDescriptor(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let picked = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard picked else { throw FreePortError.none(errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// No port could be had.
public enum FreePortError: Error, CustomStringConvertible {
    case none(errno: Int32)

    public var description: String {
        switch self {
        case .none(let code): "no free loopback port: \(String(cString: strerror(code)))"
        }
    }
}
