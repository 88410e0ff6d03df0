import GitbayKit
import HTTPServer

/// What the intake makes of one request: a delivery to take, or a refusal to answer.
///
/// A value, so the whole judgement of a request is tested without a socket, and the caller
/// decides what taking a delivery means (the state database keeps the digests of the bodies taken,
/// so a retried one, or a body replayed under another id, is taken once).
public enum WebhookDecision: Sendable, Hashable {
    /// A signed, well-formed delivery: 202.
    case accepted(GitbayDelivery)
    /// Anything else.
    case refused(WebhookRefusal)

    /// The HTTP status that answers the request.
    public var status: Int {
        switch self {
        case .accepted: 202
        case .refused(let refusal): refusal.status
        }
    }

    /// The answer to send: 202 for a delivery (taken, to be acted on by a later pass: gitbay
    /// counts any 2xx as delivered), the refusal's status and message otherwise.
    public var response: HTTPServer.Response {
        switch self {
        case .accepted(let delivery):
            return .text("accepted delivery \(delivery.id)\n", status: status)
        case .refused(let refusal):
            var response = HTTPServer.Response.text(refusal.message + "\n", status: status)
            if refusal == .methodNotAllowed { response.headers.append(HTTPServer.Header("Allow", "POST")) }
            return response
        }
    }
}
