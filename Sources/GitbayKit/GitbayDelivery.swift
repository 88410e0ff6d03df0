import Foundation

/// One webhook delivery from gitbay, as its POST carries it: the event in the body, the delivery's
/// id in `X-Gitbay-Delivery`.
///
/// gitbay (`internal/webhook/webhook.go` `deliver`) writes the body as
/// `{"event", "repo", "actor" (omitted when none), "created_at", "data"}`, built afresh from the
/// event on every attempt, and retries a delivery that got no 2xx answer under the same id with
/// the same body. Only the body is signed, so its digest (``bodyDigest``), not the id, is what a
/// receiver keeps to take each delivery once.
public struct GitbayDelivery: Sendable, Hashable {
    /// The delivery's id, positive, the same on every attempt of it.
    ///
    /// The delivery's (one a hook and event), not the event's id in the feed. Not signed: whoever
    /// captured a body may send it under any id.
    public var id: Int
    /// The event kind, such as `push`, `issue.commented` or `mr.merged`.
    public var event: String
    /// The repository the event happened in.
    public var repo: RepositoryPath
    /// Who did it, or nil when gitbay names no one (the server itself).
    public var actor: String?
    /// When the event happened, as gitbay recorded it.
    public var createdAt: Date
    /// The event's data, whose shape is the kind's; `.null` when the body has none.
    public var data: JSONValue
    /// The SHA-256 of the exact body bytes, the ones the signature covers: what a receiver keeps to
    /// take each delivery once, since ``id`` is not signed (``DeliveryLog``).
    public var bodyDigest: [UInt8]

    public init(
        id: Int, event: String, repo: RepositoryPath, actor: String?, createdAt: Date, data: JSONValue,
        bodyDigest: [UInt8]
    ) {
        self.id = id
        self.event = event
        self.repo = repo
        self.actor = actor
        self.createdAt = createdAt
        self.data = data
        self.bodyDigest = bodyDigest
    }
}
