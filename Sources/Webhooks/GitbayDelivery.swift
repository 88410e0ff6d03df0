import Foundation
import GitbayKit
import MessageAuthentication

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

    /// The body's fields as JSON holds them, before they are checked.
    private struct Body: Decodable {
        var event: String
        var repo: String
        var actor: String?
        var createdAt: String
        var data: JSONValue?

        enum CodingKeys: String, CodingKey {
            case event, repo, actor, data
            case createdAt = "created_at"
        }
    }

    /// The delivery `id` whose body is `body`, or why the body is not one (a short reason, fit for
    /// the 400 that answers it).
    static func decoded(id: Int, body: [UInt8]) -> Result<GitbayDelivery, WebhookRefusal> {
        let fields: Body
        do {
            fields = try GitbayJSON.decoder().decode(Body.self, from: Data(body))
        } catch let error as DecodingError {
            return .failure(.notADelivery(reason(for: error)))
        } catch {
            return .failure(.notADelivery("the body is not JSON"))
        }
        guard !fields.event.isEmpty else { return .failure(.notADelivery("the event is empty")) }
        guard let repo = try? RepositoryPath(fields.repo) else {
            return .failure(.notADelivery("the repo is not owner/name"))
        }
        guard let createdAt = GitbayTimestamp.parse(fields.createdAt) else {
            return .failure(.notADelivery("created_at is not a timestamp"))
        }
        return .success(
            GitbayDelivery(
                id: id, event: fields.event, repo: repo, actor: fields.actor, createdAt: createdAt,
                data: fields.data ?? .null, bodyDigest: SHA256Digest.of(body)))
    }

    /// What `error` says is wrong with a body, in a few words that name the field (never quoting
    /// the body).
    private static func reason(for error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _):
            return "the body has no \(key.stringValue)"
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            guard let key = context.codingPath.first else { return "the body is not a JSON object" }
            return "\(key.stringValue) is not a string"
        case .dataCorrupted:
            return "the body is not JSON"
        @unknown default:
            return "the body is not a delivery"
        }
    }
}
