import Foundation

/// The one-repository forges of the stale-lifecycle journeys (`JourneyTests`,
/// `MigrationJourneyTests`): krz/app with a few open issues, their comments and label events,
/// days before a journey's start.
enum JourneyForge {
    static let day: TimeInterval = 86_400

    /// gitbay's millisecond timestamp of `date`.
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// One open issue: opened `created` days before the start, its `updated_at` moved `updated`
    /// days before, with comments `(author, days before)`.
    struct Issue {
        var number: Int
        var created: Double = 200
        var updated: Double? = nil
        var comments: [(String, Double)] = []
        var labels: [String] = []
        /// When the bot labelled it stale, days before the start, as the feed shows.
        var notice: Double? = nil

        func json(start: Date) -> [String: Any] {
            var issue: [String: Any] = [
                "number": number, "title": "Issue \(number)", "state": "open", "author": "reporter",
                "created_at": stamp(start - created * day), "updated_at": stamp(start - (updated ?? created) * day),
                "comments": comments.map {
                    ["author": $0.0, "body": "a word from \($0.0)", "created_at": stamp(start - $0.1 * day)]
                },
            ]
            if !labels.isEmpty { issue["labels"] = labels }
            return issue
        }
    }

    /// The forge-state file of krz/app holding `issues`; each issue with a notice was labelled
    /// stale by the bot then, as its feed shows.
    static func state(_ issues: [Issue], start: Date) throws -> String {
        var events: [[String: Any]] = []
        for issue in issues {
            guard let notice = issue.notice else { continue }
            for (labels, actor, days) in [([String](), "reporter", issue.created), (["stale"], "triage-bot", notice)] {
                events.append([
                    "id": events.count + 1, "repo": "krz/app", "actor": actor, "kind": "issue.labeled",
                    "data": ["number": issue.number, "labels": labels], "created_at": stamp(start - days * day),
                ])
            }
        }
        events.sort { ($0["created_at"] as? String ?? "") < ($1["created_at"] as? String ?? "") }
        for index in events.indices { events[index]["id"] = index + 1 }
        let forge: [String: Any] = [
            "events": events,
            "format": "gitbay-forge-state/1", "now": stamp(start), "me": "triage-bot",
            "users": ["triage-bot", "reporter", "maintainer"],
            "repos": [
                [
                    "path": "krz/app", "default_branch": "main",
                    "branches": ["main": String(repeating: "c", count: 40)],
                    "labels": [["name": "stale"]], "issues": issues.map { $0.json(start: start) },
                ] as [String: Any]
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: forge), as: UTF8.self)
    }
}
