import GitbayKit
import Testing

@testable import BotCLI
@testable import Watch

private let url = "https://bot.example.org/hooks/gitbay"

/// What the check finds in `krz/app` with `hooks` and `deliveries`.
private func problems(_ hooks: [Webhook], _ deliveries: [WebhookDelivery] = []) throws -> [String] {
    WebhookCheck.problems(of: try RepositoryPath("krz/app"), hooks: hooks, deliveries: deliveries)
}

private func hook(
    _ id: Int = 3, url: String = url, events: String = "*", active: Bool = true, secret: Bool = true
) -> Webhook {
    Webhook(id: id, url: url, events: events, active: active, hasSecret: secret)
}

/// What `watch` says at its start about a repository's hook to it, from `webhook list` and
/// `webhook deliveries`.
@Suite struct WebhookCheckTests {
    @Test func aSignedActiveHookThatLastDeliveredWellIsFine() throws {
        let delivered = WebhookDelivery(id: 9, url: url, event: "push", status: "delivered", attempts: 1)
        #expect(try problems([hook()], [delivered]).isEmpty)
        #expect(try problems([hook()], []).isEmpty, "none sent yet")
    }

    @Test func noHookToTheEndpointIsSaid() throws {
        let found = try problems([hook(url: "https://ci.example.org/hook")], [])
        #expect(
            found == [
                "krz/app: no webhook posts to /hooks/gitbay, so its events come only by polling; add one (the \"Webhooks\" recipe)"
            ])
    }

    @Test func anInactiveUnsignedHookWithoutPushesIsSaidOnePointAtATime() throws {
        let found = try problems([hook(events: "issue.commented", active: false, secret: false)], [])
        #expect(found.count == 3)
        #expect(found[0].hasSuffix("is not active"))
        #expect(found[1].contains("has no secret"))
        #expect(found[2].contains("does not send push (events: issue.commented)"))
    }

    @Test func theLastDeliveryFailingOrRetriedIsSaidWithItsError() throws {
        let older = WebhookDelivery(id: 8, url: url, event: "push", status: "delivered", attempts: 1)
        let failed = WebhookDelivery(
            id: 9, url: url, event: "issue.commented", status: "failed", attempts: 5, lastStatus: 401,
            lastError: "endpoint returned 401")
        let found = try problems([hook()], [failed, older])
        #expect(
            found == [
                "krz/app: webhook 3 to \(url): its last delivery, 9 (issue.commented), failed after 5 attempts: HTTP 401: endpoint returned 401"
            ])
        let retried = WebhookDelivery(
            id: 10, url: url, event: "push", status: "pending", attempts: 2, lastError: "connection refused")
        #expect(
            try problems([hook()], [retried, failed]).first?
                .contains("is being retried (2 attempts): connection refused") == true)
        let queued = WebhookDelivery(id: 11, url: url, event: "push", status: "pending", attempts: 0)
        #expect(try problems([hook()], [queued]).isEmpty, "not tried yet")
    }
}
