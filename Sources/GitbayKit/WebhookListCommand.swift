/// Lists a repository's webhooks: `webhook list <repo>`, which needs admin rights on it.
///
/// `watch --listen` reads it at its start to check that a hook to its endpoint exists; the reply is
/// a bare array (`internal/control/webhook.go`, `runWebhookList`), `null` when there is none.
public struct WebhookListCommand: GitbayCommand, Hashable {
    public typealias Response = [Webhook]

    public static var effect: CommandEffect { .read }

    /// `null`, when there is none, reads as none.
    public static var emptyResponse: [Webhook]? { [] }

    public let repository: RepositoryPath

    public init(repository: RepositoryPath) {
        self.repository = repository
    }

    public var argv: [String] { ["webhook", "list", repository.description] }
}
