import Foundation
import GitbayKit
import MessageAuthentication

/// Reading a delivery from its signed body: the intake's part, since it keeps the body's digest.
extension GitbayDelivery {
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
