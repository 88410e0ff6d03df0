import Foundation
import GitbayKit
import Testing

/// The rows of `webhook list` and `webhook deliveries` as gitbay's `runWebhookList` and
/// `runWebhookDeliveries` (`internal/control/webhook.go`) print them: the error fields omitted
/// when empty, the secret never shown.
@Suite struct WebhookRowTests {
    @Test func aHookListDecodesWithItsSubscription() throws {
        let json = """
            [{"id": 3, "url": "https://bot.example.org/hooks/gitbay", "events": "push,issue.commented",
              "active": true, "has_secret": true},
             {"id": 4, "url": "https://ci.example.org/hook", "events": "*", "active": false, "has_secret": false}]
            """
        let hooks = try JSONDecoder().decode([Webhook].self, from: Data(json.utf8))
        #expect(hooks.map(\.id) == [3, 4])
        #expect(hooks[0].hasSecret && !hooks[1].active)
        #expect(hooks[0].sends("push") && hooks[0].sends("issue.commented") && !hooks[0].sends("mr.merged"))
        #expect(hooks[1].sends("mr.merged"))
    }

    @Test func deliveriesDecodeWithAndWithoutTheirLastError() throws {
        let json = """
            [{"id": 42, "url": "https://bot.example.org/hooks/gitbay", "event": "push", "status": "failed",
              "attempts": 5, "last_status": 401, "last_error": "endpoint returned 401"},
             {"id": 41, "url": "https://bot.example.org/hooks/gitbay", "event": "issue.commented",
              "status": "delivered", "attempts": 1}]
            """
        let deliveries = try JSONDecoder().decode([WebhookDelivery].self, from: Data(json.utf8))
        #expect(deliveries[0].lastStatus == 401 && deliveries[0].lastError == "endpoint returned 401")
        #expect(
            deliveries[1].lastStatus == nil && deliveries[1].lastError == nil && deliveries[1].status == "delivered")
    }
}
