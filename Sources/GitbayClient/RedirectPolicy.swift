import Foundation
import Timekeeping

/// The redirect rules both transports share: follow same-origin redirects, refuse everything else.
///
/// Neither libcurl nor URLSession is allowed to follow a redirect by itself: URLSession on Linux
/// forwards `Authorization` to another host, and each stack has its own method-rewriting habits.
/// Keeping the decision here, as pure functions over our own value types, makes both transports
/// behave identically and keeps the bearer token on the host it was meant for.
enum RedirectPolicy {
    /// How many redirects one request may follow before the transport gives up.
    static let maximumHops = 5

    /// Sends `request` through `hop`, following same-origin redirects within one overall deadline.
    ///
    /// `hop` performs exactly one HTTP exchange without following redirects; each hop receives the
    /// time left of `request.timeout`, so the deadline covers the whole redirect chain. The time
    /// is read from `clock`, which tests replace to check the deadline without waiting it out.
    static func send(
        _ request: HTTPRequest,
        clock: any MonotonicClock = SystemClock(),
        hop: (HTTPRequest) async throws(TransportError) -> HTTPResponse
    ) async throws(TransportError) -> HTTPResponse {
        let deadline = clock.now + request.timeout
        var current = request
        var redirectsFollowed = 0
        while true {
            let remaining = deadline - clock.now
            guard remaining > .zero else { throw .timedOut }
            current.timeout = remaining
            let response = try await hop(current)
            guard let next = try nextRequest(after: current, response: response) else { return response }
            guard redirectsFollowed < maximumHops else {
                throw .other("more than \(maximumHops) redirects")
            }
            redirectsFollowed += 1
            current = next
        }
    }

    /// The request to send after `response`, or nil when `response` is the final answer.
    ///
    /// Throws ``TransportError/redirectRefused(_:)`` carrying only the target host (never the
    /// path or query, which may hold identifiers) when the redirect leaves the origin.
    static func nextRequest(
        after request: HTTPRequest, response: HTTPResponse
    ) throws(TransportError)
        -> HTTPRequest?
    {
        guard [301, 302, 303, 307, 308].contains(response.status),
            let location = response.header("Location")
        else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            throw .other("redirect to an unparsable location")
        }
        guard isSameOrigin(request.url, target) else {
            throw .redirectRefused(target.host ?? "")
        }
        var next = request
        next.url = target
        let keepsMethod = response.status == 307 || response.status == 308
        if !keepsMethod && next.method != .get {
            next.method = .get
            next.body = nil
            next.headers.removeAll { header in
                ["Content-Type", "Content-Length"].contains {
                    header.name.caseInsensitiveCompare($0) == .orderedSame
                }
            }
        }
        return next
    }

    /// Whether two URLs share scheme, host and effective port, the browser notion of an origin.
    static func isSameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        guard let lhsScheme = lhs.scheme?.lowercased(), let rhsScheme = rhs.scheme?.lowercased(),
            let lhsHost = lhs.host?.lowercased(), let rhsHost = rhs.host?.lowercased()
        else { return false }
        return lhsScheme == rhsScheme && lhsHost == rhsHost
            && effectivePort(lhs, scheme: lhsScheme) == effectivePort(rhs, scheme: rhsScheme)
    }

    /// The URL's port, or the scheme's default when the URL names none.
    private static func effectivePort(_ url: URL, scheme: String) -> Int? {
        url.port ?? ["http": 80, "https": 443][scheme]
    }
}
