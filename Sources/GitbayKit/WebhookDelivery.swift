/// One delivery of a repository's webhooks, as `webhook deliveries` shows it.
///
/// gitbay's `runWebhookDeliveries` (`internal/control/webhook.go`): the delivery's id, the hook's
/// URL, the event kind, `pending`, `delivered` or `failed` (dead-lettered after five attempts), the
/// attempts so far, and the last attempt's HTTP status and error when there was one.
public struct WebhookDelivery: Codable, Sendable, Hashable {
    public var id: Int
    public var url: String
    public var event: String
    public var status: String
    public var attempts: Int
    public var lastStatus: Int?
    public var lastError: String?

    public init(
        id: Int, url: String, event: String, status: String, attempts: Int, lastStatus: Int? = nil,
        lastError: String? = nil
    ) {
        self.id = id
        self.url = url
        self.event = event
        self.status = status
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
    }

    private enum CodingKeys: String, CodingKey {
        case id, url, event, status, attempts
        case lastStatus = "last_status"
        case lastError = "last_error"
    }
}
