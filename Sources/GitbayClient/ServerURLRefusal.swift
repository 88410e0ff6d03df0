import Foundation

/// Why the client will not talk to a server URL, decided before any request.
///
/// One pure judgement, so the client (which refuses before sending the token) and a tool that
/// checks its configuration offline (which must refuse the same URLs, at the line that names
/// them) cannot disagree.
public enum ServerURLRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The URL names no scheme or no host.
    case incomplete(String)
    /// A scheme other than `https` and `http`.
    case unsupportedScheme(String)
    /// Plain `http://` to a host that is not this machine, without the opt-in: the token would
    /// cross the network in clear.
    case plainHTTP(host: String)

    /// Why the client refuses `url`, or `nil` when it takes it: `https://`, or `http://` to a
    /// loopback host or with `allowInsecureHTTP`.
    public init?(_ url: URL, allowInsecureHTTP: Bool) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            self = .incomplete(url.absoluteString)
            return
        }
        switch scheme {
        case "https":
            return nil
        case "http" where Self.isLoopback(host) || allowInsecureHTTP:
            return nil
        case "http":
            self = .plainHTTP(host: host)
        default:
            self = .unsupportedScheme(scheme)
        }
    }

    /// The refusal as the client reports it, without advice on how a caller opts in.
    public var description: String {
        switch self {
        case .incomplete(let url):
            return "the server URL '\(url)' has no scheme or host"
        case .unsupportedScheme(let scheme):
            return "unsupported URL scheme '\(scheme)': gitbay is reached over https:// (or http:// on this machine)"
        case .plainHTTP(let host):
            return "refusing plain http:// to \(host): the token would cross the network unencrypted"
        }
    }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { UInt8($0) != nil }
    }
}
