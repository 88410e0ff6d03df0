import Foundation
import GitbayKit
import HTTPServer
import Webhooks

/// `POST /hooks/gitbay` of `watch --listen`: gitbay's deliveries, checked and handed to the watcher.
///
/// gitbay counts any 2xx as delivered and retries anything else (`internal/webhook/webhook.go`,
/// `deliver`, `fail`), so a delivery is answered at once: 202 once it is in the inbox (the watcher
/// acts on it at its next step), 202 too for one outside the rules' scope (taken and ignored: a
/// retry would change nothing), 503 while the inbox is full (a retry later is what is wanted), and
/// the intake's refusal (401, 400, 413...) for what is no delivery, which changes nothing.
struct WebhookEndpoint: Sendable {
    let intake: WebhookIntake
    let inbox: WebhookInbox
    let telemetry: WatchTelemetry

    func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        let decision = intake.decide(request)
        guard case .accepted(let delivery) = decision else {
            if case .refused(let refusal) = decision {
                telemetry.deliveryReceived(request.header("X-Gitbay-Event") ?? "-", outcome: Self.outcome(refusal))
            }
            return decision.response
        }
        guard inbox.covers(delivery.repo) else {
            telemetry.deliveryReceived(delivery.event, outcome: "out-of-scope")
            return .text("delivery \(delivery.id) ignored: \(delivery.repo) is outside the rules' scope\n", status: 202)
        }
        guard let event = Self.event(of: delivery) else {
            telemetry.deliveryReceived(delivery.event, outcome: "not-a-delivery")
            return .text("the delivery's data cannot be read\n", status: 400)
        }
        guard inbox.offer(WebhookInbox.Delivery(id: delivery.id, bodyDigest: delivery.bodyDigest, event: event)) else {
            telemetry.deliveryReceived(delivery.event, outcome: "inbox-full")
            return .text("busy: too many deliveries wait; send it again later\n", status: 503)
        }
        telemetry.deliveryReceived(delivery.event, outcome: "accepted")
        return decision.response
    }

    /// The delivery as the feed row of its event, read by ``FeedEvent``'s own rules (the item's
    /// `number` and a label event's `labels` from `data`): a delivery carries the row but its id.
    static func event(of delivery: GitbayDelivery) -> FeedEvent? {
        struct Row: Encodable {
            var id = 0
            var repo: String
            var actor: String?
            var kind: String
            var data: JSONValue
            var createdAt: String

            enum CodingKeys: String, CodingKey {
                case id, repo, actor, kind, data
                case createdAt = "created_at"
            }
        }
        let row = Row(
            repo: delivery.repo.description, actor: delivery.actor, kind: delivery.event, data: delivery.data,
            createdAt: GitbayTimestamp.format(delivery.createdAt, precision: .milliseconds))
        guard let json = try? JSONEncoder().encode(row) else { return nil }
        return try? JSONDecoder().decode(FeedEvent.self, from: json)
    }

    /// The outcome a refusal is counted as on `/metrics`.
    static func outcome(_ refusal: WebhookRefusal) -> String {
        switch refusal {
        case .notFound, .methodNotAllowed, .notADelivery: "not-a-delivery"
        case .bodyTooLarge: "too-large"
        case .noSecret, .missingSignature, .badSignature: "bad-signature"
        }
    }
}
