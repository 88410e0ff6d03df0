import GitbayClient
import GitbayKit

/// The one issue per rule set that shows the last run, found by a hidden marker and edited in place.
///
/// A scheduled bot that opened an issue per run would bury its repository; instead the issue is
/// found again each run by the marker in its body (a hash of the rule names, so two rule sets
/// sharing a repository keep two issues), created once when missing, and its body replaced.
struct SummaryIssue: Sendable, Hashable {
    static let title = "gitbay-bot: last run"

    let repository: RepositoryPath
    /// The rule set's key: 16 hex digits of a hash of its sorted rule names.
    let key: String

    init(repository: RepositoryPath, ruleNames: [String]) {
        self.repository = repository
        self.key = Self.key(ruleNames: ruleNames)
    }

    /// FNV-1a (64 bits) of the sorted names, one a line: stable across runs, machines and Swift
    /// versions, unlike `Hasher`, which is seeded per process.
    static func key(ruleNames: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ruleNames.sorted().joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hidden line that marks the issue; the key is a word of its own so a text search finds it.
    var marker: String { "<!-- gitbay-bot:summary \(key) -->" }

    /// The query that finds candidates: open issues the bot's account filed carrying the key.
    var query: String { "repo:\(repository) is:open author:@me \(key)" }

    /// The issue body for a report: the marker, then the report.
    func body(_ report: String) -> String { marker + "\n" + report }

    /// What publishing did.
    enum Result: Sendable, Hashable {
        case created(Int)
        case edited(Int)
        case unchanged(Int)
    }

    /// Finds the marked issue and replaces its body, or files it when there is none.
    ///
    /// Candidates come from a text search, which also matches the key in someone's quote of it, so
    /// each is read and must carry the exact marker; the lowest number wins if there are several.
    func publish(_ report: String, client: GitbayClient) async throws -> Result {
        let body = body(report)
        let rows = try await client.all(IssueQueryCommand(query: query))
        for number in rows.filter({ $0.repo == repository }).map(\.number).sorted() {
            let issue = try await client.send(IssueShowCommand(repository: repository, number: number))
            guard let current = issue.body, current.contains(marker) else { continue }
            if current == body { return .unchanged(number) }
            _ = try await client.send(IssueEditCommand(repository: repository, number: number, body: body))
            return .edited(number)
        }
        let reply = try await client.send(IssueCreateCommand(repository: repository, title: Self.title, body: body))
        return .created(reply.number)
    }
}
