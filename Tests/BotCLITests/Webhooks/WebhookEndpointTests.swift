import GitbayKit
import GitbayTestSupport
import HTTPServer
import MessageAuthentication
import RuleEngine
import Testing
import Webhooks

@testable import BotCLI
@testable import Watch

/// `POST /hooks/gitbay`: what the intake accepts reaches the inbox as its event's feed row.
@Suite struct WebhookEndpointTests {
    private static let secret = Array("the hook's secret".utf8)

    /// An endpoint for krz/app, with its inbox.
    private func endpoint() -> WebhookEndpoint {
        let inbox = WebhookInbox()
        inbox.scope(RuleScope(terms: [.repository("krz/app")]))
        let telemetry = WatchTelemetry(
            server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: SteppedClock())
        return WebhookEndpoint(
            intake: WebhookIntake(path: WebhookCheck.endpointPath, secret: Self.secret), inbox: inbox,
            telemetry: telemetry, console: RecordingConsole())
    }

    /// `body` posted as gitbay posts delivery 5 of `issue.commented`, signed with the secret.
    private func request(_ body: String) -> HTTPServer.Request {
        let signature = "sha256=" + HMACSHA256.code(for: Array(body.utf8), key: Self.secret).lowercaseHex
        return HTTPServer.Request(
            method: "POST", target: WebhookCheck.endpointPath,
            headers: [
                HTTPServer.Header("X-Gitbay-Event", "issue.commented"), HTTPServer.Header("X-Gitbay-Delivery", "5"),
                HTTPServer.Header("X-Gitbay-Signature-256", signature),
            ], body: Array(body.utf8))
    }

    /// A time with an offset whose UTC year has five digits: the intake takes it, and so does the
    /// endpoint (its event was once written out as a row and read back, which refused it with 400).
    @Test func aSignedDeliveryTheIntakeTakesReachesTheInbox() throws {
        let endpoint = endpoint()
        let body =
            #"{"event":"issue.commented","repo":"krz/app","actor":"alice","created_at":"9999-12-31T23:30:00-01:00","#
            + #""data":{"number":7}}"#
        #expect(endpoint.respond(to: request(body)).status == 202)
        let taken = endpoint.inbox.take()
        #expect(taken.map(\.id) == [5])
        #expect(taken.first?.event.number == 7)
        #expect(taken.first?.event.createdAt == GitbayTimestamp.parse("9999-12-31T23:30:00-01:00"))
        #expect(endpoint.telemetry.status.refusals.failing == false)
    }
}
