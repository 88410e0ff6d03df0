/// Where the HTTP server listens: an IP literal and a port, as `--listen HOST:PORT` gives them.
///
/// The host is an IP address, or `localhost` read as 127.0.0.1: a host name is refused, because
/// it may resolve to a public address without the operator noticing.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IP literal: "127.0.0.1", "::1", "0.0.0.0", "::", "192.0.2.7" ...
    public var host: String
    /// 0...65535; 0 asks for any free port.
    public var port: Int

    /// Whether only this machine can reach the address: 127.0.0.0/8 and ::1.
    public var isLoopback: Bool { IPAddress(host)?.isLoopback ?? false }

    /// The address as `--listen` takes it: "127.0.0.1:9464", "[::1]:9464".
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The host of "PORT", ":PORT" and "localhost:PORT".
    private static let loopback = "127.0.0.1"

    /// Parses the `--listen` value: "PORT" or ":PORT" (127.0.0.1), "localhost:PORT" (127.0.0.1),
    /// "IPv4:PORT" or "[IPv6]:PORT".
    public static func parse(_ text: String) throws(HTTPServerError) -> ListenAddress {
        let host: String
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].dropFirst().first == ":" else {
                throw usage(text)
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            port = text[close...].dropFirst(2)
            guard IPAddress(host)?.isIPv6 == true else { throw usage(text) }
        } else if let colon = text.lastIndex(of: ":") {
            let name = text[..<colon]
            port = text[colon...].dropFirst()
            if name.contains(":") {
                throw HTTPServerError(
                    "--listen takes an IPv6 address in brackets, such as [::1]:9464, not \(HTTPServerError.quoted(text))"
                )
            }
            if name.isEmpty || name.lowercased() == "localhost" {
                host = loopback
            } else if IPAddress(name) != nil {
                host = String(name)
            } else {
                throw usage(text)
            }
        } else {
            guard text.utf8.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw usage(text)
            }
            host = loopback
            port = text[...]
        }
        guard port.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            (1...5).contains(port.utf8.count), let number = Int(port), number <= 65535
        else {
            throw HTTPServerError(
                "--listen takes a port from 0 to 65535, such as 127.0.0.1:9464, not \(HTTPServerError.quoted(text))")
        }
        return ListenAddress(host: host, port: number)
    }

    /// The error for a value that is not HOST:PORT with an IP address or localhost for HOST.
    private static func usage(_ text: String) -> HTTPServerError {
        HTTPServerError(
            "--listen takes HOST:PORT with HOST an IP address or localhost, such as 127.0.0.1:9464, not "
                + HTTPServerError.quoted(text))
    }
}
