import Foundation
import GitbayKit

/// What is wrong with a repository's webhook to the watcher, from `webhook list` and
/// `webhook deliveries`: pure, so every finding is a test.
///
/// gitbay's hooks are per repository and need admin rights to list (`internal/control/webhook.go`,
/// `runWebhookList`, `runWebhookDeliveries`), so `watch` checks those its token may list at its
/// start, and says what a person should fix. The secret is never shown by gitbay, nor here.
public enum WebhookCheck {
    /// The path gitbay's hooks must post to.
    public static let endpointPath = "/hooks/gitbay"

    /// How many repositories the start looks at: two reads each (ten seconds of gitbay's read
    /// pace), before the first poll; the rest are judged by the deliveries that come.
    static let repositoriesChecked = 10

    /// The problems with `repository`'s hooks to ``endpointPath``, given its `hooks` and newest
    /// `deliveries`; none when one hook is active, signed, sends pushes and last delivered well.
    static func problems(
        of repository: RepositoryPath, hooks: [Webhook], deliveries: [WebhookDelivery]
    ) -> [String] {
        let ours = hooks.filter { URL(string: $0.url)?.path == endpointPath }
        guard !ours.isEmpty else {
            return [
                "\(repository): no webhook posts to \(endpointPath), so its events come only by polling; add one "
                    + "(the \"Webhooks\" recipe)"
            ]
        }
        var problems: [String] = []
        for hook in ours {
            let name = "\(repository): webhook \(hook.id) to \(hook.url)"
            if !hook.active { problems.append("\(name) is not active") }
            if !hook.hasSecret {
                problems.append("\(name) has no secret: its deliveries are unsigned, and the bot refuses them (401)")
            }
            if !hook.sends("push") {
                problems.append("\(name) does not send push (events: \(hook.events)), which no feed shows")
            }
            if let last = deliveries.filter({ $0.url == hook.url }).max(by: { $0.id < $1.id }),
                last.status != "delivered", last.attempts > 0
            {
                let why = [last.lastStatus.map { "HTTP \($0)" }, last.lastError].compactMap(\.self)
                    .joined(separator: ": ")
                let state =
                    last.status == "failed"
                    ? "failed after \(last.attempts) attempts" : "is being retried (\(last.attempts) attempts)"
                problems.append(
                    "\(name): its last delivery, \(last.id) (\(last.event)), \(state)\(why.isEmpty ? "" : ": \(why)")")
            }
        }
        return problems
    }
}
