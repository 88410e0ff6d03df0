import Foundation
import GitbayTestSupport
import HTTPServer
import MessageAuthentication
import RuleEngine
import Testing
import Webhooks

@testable import BotCLI
@testable import Watch

private let secret = Array("the bot's webhook secret".utf8)

private let body =
    #"{"event":"issue.commented","repo":"krz/app","actor":"alice","created_at":"2026-12-04T04:16:09.000Z","#
    + #""data":{"number":1}}"#

/// A POST to the hook: with gitbay's delivery headers when `claims`, signed with `key`.
private func request(claims: Bool = true, key: [UInt8]? = secret, body: String = body) -> HTTPServer.Request {
    var headers = [HTTPServer.Header("Content-Type", "application/json")]
    if claims {
        headers += [
            HTTPServer.Header("X-Gitbay-Event", "issue.commented"), HTTPServer.Header("X-Gitbay-Delivery", "7"),
        ]
    }
    if let key {
        let signature = "sha256=" + HMACSHA256.code(for: Array(body.utf8), key: key).lowercaseHex
        headers.append(HTTPServer.Header("X-Gitbay-Signature-256", signature))
    }
    return HTTPServer.Request(
        method: "POST", target: WebhookCheck.endpointPath, headers: headers, body: Array(body.utf8))
}

/// An endpoint with the bot's secret, its rules' scope `owner:krz`, telling `console`.
private func endpoint(_ console: RecordingConsole) -> WebhookEndpoint {
    let inbox = WebhookInbox()
    inbox.scope(RuleScope(terms: [.owner("krz")]))
    let telemetry = WatchTelemetry(
        server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: SteppedClock(),
        origin: Date(timeIntervalSince1970: 1_800_000_000))
    telemetry.polling(every: 300, deliveries: DeliveryWatch(grace: .seconds(60)))
    return WebhookEndpoint(
        intake: WebhookIntake(path: WebhookCheck.endpointPath, secret: secret), inbox: inbox, telemetry: telemetry,
        console: console)
}

/// Which refusals of a delivery count as failing deliveries, and their spells: each said once,
/// and ended by the next delivery taken.
@Suite struct RefusedDeliveriesTests {
    @Test func aSignatureRefusalCountsOnlyOnARequestThatClaimsToBeADelivery() {
        for refusal in [WebhookRefusal.badSignature, .missingSignature, .noSecret] {
            #expect(RefusedDeliveries.counts(refusal, claimsDelivery: true))
            #expect(!RefusedDeliveries.counts(refusal, claimsDelivery: false), "\(refusal): a scanner's noise")
        }
        #expect(RefusedDeliveries.counts(.notADelivery("the body has no repo"), claimsDelivery: false), "signed")
        for refusal in [WebhookRefusal.notFound, .methodNotAllowed, .bodyTooLarge(limit: 1)] {
            #expect(!RefusedDeliveries.counts(refusal, claimsDelivery: true), "\(refusal) says nothing of the hook")
        }
    }

    @Test func aSpellBeginsAtItsFirstRefusalAndEndsAtTheNextDeliveryTaken() {
        var refusals = RefusedDeliveries()
        #expect(refusals.record(.taken) == nil, "no spell to end")
        #expect(refusals.record(.refused(reason: "a")) == .began(reason: "a"))
        #expect(refusals.record(.neither) == nil && refusals.failing, "a full inbox ends nothing")
        #expect(refusals.record(.refused(reason: "b")) == nil, "within the spell: said once")
        #expect(refusals.failing && refusals.inSpell == 2 && refusals.lastReason == "b")
        #expect(refusals.record(.taken) == .ended(refused: 2))
        #expect(!refusals.failing && refusals.lastReason == nil)
        #expect(refusals.record(.refused(reason: "c")) == .began(reason: "c"), "a new spell is said again")
        #expect(refusals.total == 3)
    }

    /// A hostile client's garbage, however much, turns nothing; a request with gitbay's headers
    /// and the wrong secret does, at once, and is said once.
    @Test func garbageTurnsNothingAndAWrongSecretTurnsDeliveriesFailingSaidOnce() {
        let console = RecordingConsole()
        let hook = endpoint(console)
        for _ in 1...50 {
            #expect(hook.respond(to: request(claims: false, key: nil)).status == 401)
            #expect(hook.respond(to: request(claims: false, key: Array("guess".utf8))).status == 401)
        }
        let scanned = hook.telemetry.status
        #expect(!scanned.deliveriesFailing && scanned.refusals.total == 0 && console.error.isEmpty)
        #expect(WatchHealth.verdict(scanned, now: hook.telemetry.now).healthy)

        for _ in 1...3 { #expect(hook.respond(to: request(key: Array("another secret".utf8))).status == 401) }
        let refused = hook.telemetry.status
        let verdict = WatchHealth.verdict(refused, now: hook.telemetry.now)
        #expect(!verdict.healthy)
        #expect(
            verdict.line
                == "webhook deliveries are refused: 3 from gitbay in a row; the last: the signature does not match "
                + "the body: the hook signs with another secret than the webhook secret file's")
        let metrics = MetricsExposition.render(refused, now: hook.telemetry.now, residentBytes: nil)
        #expect(metrics.contains("\ngitbay_bot_webhook_deliveries_failing 1\n"))
        #expect(metrics.contains("\ngitbay_bot_webhook_deliveries_refused_total 3\n"))
        #expect(StatusPage.render(refused, now: hook.telemetry.now).contains("Deliveries are refused: 3 from gitbay"))
        #expect(console.error.components(separatedBy: "warning: webhook deliveries are refused").count == 2)

        #expect(hook.respond(to: request()).status == 202)
        #expect(!hook.telemetry.status.deliveriesFailing)
        #expect(console.error.hasSuffix("note: webhook deliveries are accepted again after 3 refused\n"))
        #expect(!console.error.contains(String(decoding: secret, as: UTF8.self)))
    }

    /// A signed delivery the bot cannot read is gitbay's and lost: it counts, whatever its headers.
    @Test func aSignedDeliveryTheBotCannotReadCounts() {
        let console = RecordingConsole()
        let hook = endpoint(console)
        let unreadable = #"{"event":"issue.commented","created_at":"2026-12-04T04:16:09.000Z"}"#
        #expect(hook.respond(to: request(claims: false, body: unreadable)).status == 400)
        #expect(hook.telemetry.status.refusals.lastReason?.hasPrefix("a signed delivery this bot cannot read") == true)
        #expect(hook.telemetry.status.deliveriesFailing)
    }
}
