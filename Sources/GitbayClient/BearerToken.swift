import Foundation

/// A gitbay API token (`gb_` and 64 hex digits) that cannot leak through printing.
///
/// The token is the bot's only credential and often a full-scope one, so every way Swift offers to
/// turn a value into text (`description`, `debugDescription`, `dump`, string interpolation) shows a
/// redacted form. Only ``GitbayClient`` reads the secret, to build the `Authorization` header.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    let secret: String

    /// Wraps a token, trimming the whitespace a token file usually ends with.
    public init(_ secret: String) {
        self.secret = secret.trimmingWhitespace()
    }

    /// Whether the token is empty after trimming (a blank token file).
    public var isEmpty: Bool { secret.isEmpty }

    public var description: String { "gb_…(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Replaces every occurrence of the secret in `text`, for messages that came from elsewhere.
    public func redact(_ text: String) -> String {
        guard secret.count >= 8, text.contains(secret) else { return text }
        return text.replacingOccurrences(of: secret, with: description)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
