import ArgumentParsing
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
/// the intake's refusal (401, 400, 413...) for what is no delivery, which changes nothing. A
/// refusal that says the bot and its hook disagree (``RefusedDeliveries``) makes deliveries
/// failing at once, and the first of a spell is said on stderr, as is the delivery that ends it;
/// the watcher polls the feed at its normal pace until a delivery is accepted.
public struct WebhookEndpoint: Sendable {
    public let intake: WebhookIntake
    public let inbox: WebhookInbox
    public let telemetry: WatchTelemetry
    /// Where a spell of refused deliveries is said, once, and its end.
    public let console: any Console

    public init(intake: WebhookIntake, inbox: WebhookInbox, telemetry: WatchTelemetry, console: any Console) {
        self.intake = intake
        self.inbox = inbox
        self.telemetry = telemetry
        self.console = console
    }

    public func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        let decision = intake.decide(request)
        guard case .accepted(let delivery) = decision else {
            if case .refused(let refusal) = decision {
                let counts = RefusedDeliveries.counts(refusal, claimsDelivery: WebhookIntake.claimsDelivery(request))
                record(
                    request.header("X-Gitbay-Event") ?? "-", Self.outcome(refusal),
                    counts ? .refused(reason: RefusedDeliveries.reason(for: refusal)) : .neither)
            }
            return decision.response
        }
        guard inbox.covers(delivery.repo) else {
            record(delivery.event, "out-of-scope", .taken)
            return .text("delivery \(delivery.id) ignored: \(delivery.repo) is outside the rules' scope\n", status: 202)
        }
        let event = FeedEvent(delivery: delivery)
        guard inbox.offer(WebhookInbox.Delivery(id: delivery.id, bodyDigest: delivery.bodyDigest, event: event)) else {
            record(delivery.event, "inbox-full", .neither)
            return .text("busy: too many deliveries wait; send it again later\n", status: 503)
        }
        record(delivery.event, "accepted", .taken)
        return decision.response
    }

    /// Counts the answer to a delivery of `event`, and says a spell of refusals that it began or
    /// ended; never the secret, a signature or what the request said.
    private func record(_ event: String, _ outcome: String, _ answer: RefusedDeliveries.Answer) {
        switch telemetry.deliveryReceived(event, outcome: outcome, answer: answer) {
        case .began(let reason):
            inbox.refusalsBegan()
            console.write(
                "warning: webhook deliveries are refused: \(reason); they count as failing (/healthz answers 503) "
                    + "until one is accepted\n", to: .error)
        case .ended(let refused):
            console.write("note: webhook deliveries are accepted again after \(refused) refused\n", to: .error)
        case nil:
            break
        }
    }

    /// The outcome a refusal is counted as on `/metrics`.
    public static func outcome(_ refusal: WebhookRefusal) -> String {
        switch refusal {
        case .notFound, .methodNotAllowed, .notADelivery: "not-a-delivery"
        case .bodyTooLarge: "too-large"
        case .noSecret, .missingSignature, .badSignature: "bad-signature"
        }
    }
}
