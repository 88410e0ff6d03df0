import Foundation

extension HTTPRequest {
    /// The `User-Agent` the bot identifies itself with, so forge operators can tell its traffic apart.
    ///
    /// The client sets it on every request; the transports add it themselves to a request that
    /// lacks one, because both FoundationNetworking and libcurl would otherwise send their own.
    public static let defaultUserAgent = "gitbay-bot/\(BotVersion.current)"

    /// This request with a `User-Agent` header added when it has none (matched case-insensitively).
    func addingDefaultUserAgent() -> HTTPRequest {
        let hasUserAgent = headers.contains { $0.name.caseInsensitiveCompare("User-Agent") == .orderedSame }
        guard !hasUserAgent else { return self }
        var copy = self
        copy.headers.append(HTTPHeader("User-Agent", Self.defaultUserAgent))
        return copy
    }
}
