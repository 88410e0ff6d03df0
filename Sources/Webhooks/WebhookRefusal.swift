/// Why the intake turned a request away, and the status that tells gitbay (which retries
/// anything but a 2xx, so every refusal is a retry unless it is final in gitbay's eyes).
///
/// The messages are a few words for gitbay's delivery log and the bot's; none quotes the secret,
/// a signature or the body.
public enum WebhookRefusal: Error, Sendable, Hashable {
    /// A path other than the hook's: 404.
    case notFound
    /// A method other than POST on the hook's path: 405 with `Allow: POST`.
    case methodNotAllowed
    /// A body longer than the intake takes: 413.
    case bodyTooLarge(limit: Int)
    /// The intake has no secret, so no signature can be checked and nothing is taken: 401.
    case noSecret
    /// No `X-Gitbay-Signature-256` field: 401.
    case missingSignature
    /// A signature that is not the body's under the secret, or more than one: 401.
    case badSignature
    /// A signed request that is no delivery (a body that is not one, headers that disagree with it
    /// or lack its id), with what is wrong: 400.
    case notADelivery(String)

    /// The HTTP status of the refusal.
    public var status: Int {
        switch self {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .bodyTooLarge: 413
        case .noSecret, .missingSignature, .badSignature: 401
        case .notADelivery: 400
        }
    }

    /// What the refusal says, one short line.
    public var message: String {
        switch self {
        case .notFound: "no such hook"
        case .methodNotAllowed: "a webhook is delivered by POST"
        case .bodyTooLarge(let limit): "the body is longer than \(limit) bytes"
        case .noSecret: "no webhook secret is configured, so no delivery is taken"
        case .missingSignature: "X-Gitbay-Signature-256 is missing"
        case .badSignature: "the signature does not match the body"
        case .notADelivery(let reason): reason
        }
    }
}
