import Foundation
import GitbayTestSupport

/// The forge, the people and the rules of ``WeeksPropertyTests``: three repositories of krz, each
/// with issues at every stage of the stale and needs-info lifecycles and a stack of merge requests,
/// acted on by maintainers, a reporter, a merge-request author and a CI account.
enum WeeksForge {
    static let me = "triage-bot"
    /// The CI account the configuration names in `bots:`.
    static let ciBot = "ci-bot"
    static let repositories = ["krz/app", "krz/lib", "krz/web"]
    /// alice and bob may write (labels, closes, merges); gina reports the issues, hal opens the
    /// merge requests and pushes to them.
    static let tokens = [
        "alice": "gb_" + String(repeating: "a", count: 64), "bob": "gb_" + String(repeating: "b", count: 64),
        "gina": "gb_" + String(repeating: "9", count: 64), "hal": "gb_" + String(repeating: "h", count: 64),
        ciBot: "gb_" + String(repeating: "c", count: 64),
    ]
    static let maintainers = ["alice", "bob"]
    /// Issues are 1 to 6 of each repository; merge requests 7 to 10.
    static let issues = 1...6
    /// !7 targets main; !8 is a draft stacked on it, !9 a draft stacked on !8; !10 stands alone.
    static let stack = [7: "main", 8: "feat-7", 9: "feat-8", 10: "main"]
    static let day: TimeInterval = 86_400
    /// Far enough before any real clock this test runs under: `apply` re-checks on the real
    /// clock (it takes no `--now`), and must never see the forge's times in its future.
    static let start = Date(timeIntervalSince1970: 1_790_845_200)  // 2026-10-01T09:00:00Z

    /// The needs-info pair of docs/recipes.md, on every repository of krz.
    static let waitingRules = NeedsInfoRules.file(scope: "owner:krz")

    /// A folder holding the shipped stale-issues rules, the stack-status example and the
    /// needs-info pair, and beside it a configuration naming ci-bot in `bots:`.
    static func rules() throws -> (folder: String, configuration: String) {
        let root = SimulatorProcess.repositoryRoot
        let base = Scratch.url("weeks-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for shipped in ["rules/stale-issues.yml", "examples/stack-status/stack-waits.yml"] {
            let source = root.appendingPathComponent(shipped)
            try FileManager.default.copyItem(
                at: source, to: folder.appendingPathComponent(source.lastPathComponent))
        }
        try waitingRules.write(to: folder.appendingPathComponent("waiting.yml"), atomically: true, encoding: .utf8)
        let configuration = base.appendingPathComponent("gitbay-bot.yml")
        try "bots: [\(ciBot)]\n".write(to: configuration, atomically: true, encoding: .utf8)
        return (folder.path, configuration.path)
    }

    /// The head `index` of a merge request's branch: 40 hex digits, never reused.
    static func head(_ index: Int) -> String { String(format: "%040x", 0xbeef_0000 + index) }

    /// The bot's hidden marker for `rule` on `item`.
    static func marker(_ rule: String, _ item: String) -> String { "<!-- gitbay-bot:rule=\(rule) item=\(item) -->" }

    /// The forge at ``start`` and what the journal will not show of it.
    struct Start {
        /// The forge-state file.
        var json: String
        /// The notices the bot posted before the first run, as `(item, rule)`.
        var notices: [(String, String)] = []
        /// Each issue's labels, by item.
        var labels: [String: Set<String>] = [:]
        /// Each merge request's head, by item.
        var heads: [String: String] = [:]
    }

    /// The forge-state file at ``start``, its ages drawn from `random`.
    static func state(using random: inout SeededGenerator) throws -> Start {
        var facts = Start(json: "")
        let repositories = repositories(using: &random, facts: &facts)
        let state: [String: Any] = [
            "format": "gitbay-forge-state/1", "now": JourneyForge.stamp(start), "me": me,
            "users": [me] + tokens.keys.sorted(),
            "repos": repositories,
        ]
        let data = try JSONSerialization.data(withJSONObject: state, options: [.sortedKeys])
        facts.json = String(decoding: data, as: UTF8.self)
        return facts
    }

    private static func repositories(
        using random: inout SeededGenerator, facts: inout Start
    ) -> [[String: Any]] {
        var result: [[String: Any]] = []
        for (index, path) in repositories.enumerated() {
            var branches = ["main": head(index * 100)]
            var mergeRequests: [[String: Any]] = []
            for (number, target) in stack.sorted(by: { $0.key < $1.key }) {
                let sha = head(index * 100 + number)
                branches["feat-\(number)"] = sha
                facts.heads["\(path)!\(number)"] = sha
                mergeRequests.append([
                    "number": number, "title": "Change \(number)", "state": "open", "draft": number == 8 || number == 9,
                    "author": "hal", "source": "feat-\(number)", "target_ref": target, "head_sha": sha,
                    "created_at": stamp(daysAgo: 20), "updated_at": stamp(daysAgo: 20),
                ])
            }
            let issues = issues.map { issue($0, of: path, using: &random, facts: &facts) }
            result.append([
                "path": path, "default_branch": "main", "branches": branches,
                "access": [
                    me, ["user": "alice", "role": "write"], ["user": "bob", "role": "write"],
                    ["user": "gina", "role": "read"], ["user": "hal", "role": "read"], ["user": ciBot, "role": "read"],
                ],
                "labels": ["needs-info", "stale", "pinned", "security", "bug"].map { ["name": $0] },
                "issues": issues, "merge_requests": mergeRequests,
            ])
        }
        return result
    }

    /// Issue `number` at one stage of its lifecycle, by its number: 1 nearly stale, 2 stale with
    /// the notice, 3 asked and unanswered, 4 asked and reminded, 5 asked and answered, 6 fresh.
    private static func issue(
        _ number: Int, of path: String, using random: inout SeededGenerator, facts: inout Start
    ) -> [String: Any] {
        let reference = "\(path)#\(number)"
        var comments: [(author: String, body: String, daysAgo: Double)] = []
        var labels: [String] = []
        let jitter = Double.random(in: 0..<1, using: &random)
        switch number {
        case 1: comments = [("alice", "Can you reproduce it on main?", 52 + 10 * jitter)]
        case 2:
            let notice = 1 + 9 * jitter
            labels = ["stale"]
            comments = [
                ("bob", "Still happening?", 61 + notice),
                (me, "No one has commented on this issue.\n" + marker("mark-stale", reference), notice),
            ]
            facts.notices.append((reference, "mark-stale"))
        case 3:
            labels = ["needs-info"]
            comments = [("alice", "Which version are you on?", 3 + 6 * jitter)]
        case 4:
            let reminder = 1 + 5 * jitter
            labels = ["needs-info"]
            comments = [
                ("alice", "Which version are you on?", 8 + reminder),
                (me, "@gina: could you answer the question above?\n" + marker("remind-author", reference), reminder),
            ]
            facts.notices.append((reference, "remind-author"))
        case 5:
            labels = ["needs-info"]
            comments = [("bob", "Logs, please?", 10 * (1 + jitter)), ("gina", "Attached.", 4 * (1 + jitter))]
        default: comments = [("bob", "Looking into it.", 1 + jitter)]
        }
        let newest = comments.map(\.daysAgo).min() ?? 90
        var issue: [String: Any] = [
            "number": number, "title": "Issue \(number)", "state": "open", "author": "gina",
            "created_at": stamp(daysAgo: 120), "updated_at": stamp(daysAgo: newest),
            "comments": comments.map {
                ["author": $0.author, "body": $0.body, "created_at": stamp(daysAgo: $0.daysAgo)]
            },
        ]
        if !labels.isEmpty { issue["labels"] = labels }
        facts.labels[reference] = Set(labels)
        return issue
    }

    private static func stamp(daysAgo days: Double) -> String { JourneyForge.stamp(start - days * day) }
}
