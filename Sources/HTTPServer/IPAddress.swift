#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP literal in network byte order: what `inet_pton` makes of a host, and what `bind` takes.
///
/// Only literals: a host name would have to be resolved, and could resolve to an address the
/// operator did not mean to expose.
struct IPAddress: Hashable, Sendable {
    /// Four bytes for IPv4, sixteen for IPv6.
    let bytes: [UInt8]

    /// The address `text` spells, or nil when it is no IPv4 or IPv6 literal.
    init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    var isIPv6: Bool { bytes.count == 16 }

    /// Whether only this machine can reach the address: 127.0.0.0/8, ::1, and 127.0.0.0/8 mapped
    /// into IPv6 (::ffff:127.x.y.z).
    var isLoopback: Bool {
        guard isIPv6 else { return bytes[0] == 127 }
        let mappedIPv4Prefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
        if bytes.starts(with: mappedIPv4Prefix) { return bytes[12] == 127 }
        return bytes == Array(repeating: 0, count: 15) + [1]
    }
}
