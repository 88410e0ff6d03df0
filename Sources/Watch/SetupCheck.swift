import ArgumentParsing
import GitbayClient
import GitbayKit
import Synchronization

/// `watch`'s check of the webhooks at its start, run beside the passes on a budget of its own,
/// so that a slow or failing server delays no pass.
///
/// The loop hands it the repositories its first full pass listed and goes on; the check reads
/// through a sibling of the watcher's client (``GitbayClient/sibling(retry:)``): it paces with the
/// passes, since gitbay's budgets are the account's, but retries less, stops at
/// ``requestBudget`` requests, and counts apart, so no pass's line counts its reads. Its outcome is
/// said on stderr and on the status page when it ends, well or not; the loop takes the
/// repositories found in order at its next step. (Issue 40: run inside the loop, a `webhook list`
/// answering 500 held the first passes for its retries, about 10 s.)
public final class SetupCheck: Sendable {
    /// Attempts for each of the check's reads: one retry, after 2 s to 4 s.
    public static let retry = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(4))

    /// The most requests the check sends, retries included: two reads for each repository it
    /// looks at, and a few retries; the repositories left are judged by the deliveries that come.
    public static let requestBudget = 2 * WebhookCheck.repositoriesChecked + 4

    private let client: GitbayClient
    private let console: any Console
    private let telemetry: WatchTelemetry
    private let requests: AsyncStream<[RepositoryPath]>
    private let handOver: AsyncStream<[RepositoryPath]>.Continuation
    private let found = Mutex<[String]?>(nil)

    /// A check reading through a sibling of `client`, telling `console` and `telemetry`.
    public init(client: GitbayClient, console: any Console, telemetry: WatchTelemetry) {
        self.client = client.sibling(retry: Self.retry)
        self.console = console
        self.telemetry = telemetry
        (requests, handOver) = AsyncStream.makeStream(of: [RepositoryPath].self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts the check of `repositories`; the first call counts, later ones are ignored.
    public func start(_ repositories: [RepositoryPath]) {
        handOver.yield(repositories)
        handOver.finish()
    }

    /// Runs the check once ``start(_:)`` is called, until it ends or the task is cancelled.
    public func run() async {
        for await repositories in requests {
            let fine = await check(repositories)
            guard !Task.isCancelled else { return }
            found.withLock { $0 = fine }
            return
        }
    }

    /// The repositories whose hook the check found in order, once, after it ended; `nil` before
    /// and after that.
    public func takeFound() -> [String]? {
        found.withLock { found in
            defer { found = nil }
            return found
        }
    }

    /// Checks the hooks of the first ``WebhookCheck/repositoriesChecked`` of `repositories` the
    /// token may list, within ``requestBudget``, and says what is wrong with them; the secret is
    /// never shown.
    ///
    /// A repository the token has no admin rights on cannot be listed and is left to the
    /// deliveries (``DeliveryWatch`` tells when its events come only by polling). Answers the
    /// repositories whose hook is in order.
    private func check(_ repositories: [RepositoryPath]) async -> [String] {
        var fine: [String] = []
        var (checked, refused, failed) = (0, 0, 0)
        var problems: [String] = []
        for repository in repositories.prefix(WebhookCheck.repositoriesChecked) {
            guard !Task.isCancelled else { return fine }
            let spent = client.metrics.reads
            guard spent + 2 <= Self.requestBudget else { break }
            do {
                let hooks = try await client.send(WebhookListCommand(repository: repository))
                let deliveries = try await client.send(WebhookDeliveriesCommand(repository: repository))
                let found = WebhookCheck.problems(of: repository, hooks: hooks, deliveries: deliveries)
                if found.isEmpty { fine.append(repository.description) }
                problems += found
                checked += 1
            } catch  where error.kind == .denied || error.kind == .notFound {
                refused += 1
            } catch  where error.kind == .cancelled {
                return fine
            } catch {
                failed += 1
            }
        }
        let unchecked = repositories.count - checked - refused - failed
        var summary = "checked \(checked) repositor\(checked == 1 ? "y" : "ies")"
        if refused > 0 { summary += ", \(refused) not listable with this token (admin rights are needed)" }
        if failed > 0 { summary += ", \(failed) not answered (the server's trouble; the deliveries will tell)" }
        if unchecked > 0 { summary += ", \(unchecked) left to the deliveries" }
        console.write("note: webhooks: \(summary)\(problems.isEmpty ? "; no problem found" : ":")\n", to: .error)
        for problem in problems { console.write("note: webhooks: \(problem)\n", to: .error) }
        telemetry.hooksChecked(summary, problems: problems)
        return fine
    }
}
