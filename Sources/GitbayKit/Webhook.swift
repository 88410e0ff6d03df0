import Foundation

/// One webhook of a repository, as `webhook list` shows it.
///
/// gitbay's `runWebhookList` (`internal/control/webhook.go`) shows the id, the URL, the event
/// subscription (`*` or a comma-separated list of kinds), whether it is active, and whether it has a
/// secret, never the secret itself.
public struct Webhook: Codable, Sendable, Hashable {
    public var id: Int
    public var url: String
    public var events: String
    public var active: Bool
    public var hasSecret: Bool

    public init(id: Int, url: String, events: String, active: Bool, hasSecret: Bool) {
        self.id = id
        self.url = url
        self.events = events
        self.active = active
        self.hasSecret = hasSecret
    }

    private enum CodingKeys: String, CodingKey {
        case id, url, events, active
        case hasSecret = "has_secret"
    }

    /// Whether the hook sends the event `kind`: `*`, or a list naming it.
    public func sends(_ kind: String) -> Bool {
        events == "*" || events.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == kind }
    }
}
