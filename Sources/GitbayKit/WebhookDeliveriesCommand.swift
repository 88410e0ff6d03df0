/// A repository's newest webhook deliveries: `webhook deliveries <repo>`, which needs admin rights.
///
/// gitbay shows the newest 20 by default (`internal/control/webhook.go`, `runWebhookDeliveries`),
/// newest first, as a bare array (`null` when there is none): enough for `watch` to tell whether
/// its hook's last deliveries failed.
public struct WebhookDeliveriesCommand: GitbayCommand, Hashable {
    public typealias Response = [WebhookDelivery]

    public static var effect: CommandEffect { .read }

    /// `null`, when there is none, reads as none.
    public static var emptyResponse: [WebhookDelivery]? { [] }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["webhook", "deliveries", repository.description] }
}
