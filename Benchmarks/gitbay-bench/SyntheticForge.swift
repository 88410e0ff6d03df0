import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine

/// A forge built in memory for `gitbay-bench evaluate`: a given number of items spread over ten
/// `krz/` repositories, every item and repository fact `known`, as a forge-state file gives them.
///
/// Half the items are issues, a fifth merge requests (some stacked, some landed) and the rest
/// builds over a few branches and jobs, with enough pending and running ones to exercise
/// `superseded` and the build protections.
enum SyntheticForge {
    static let me = "gitbay-bot"
    static let now = Date(timeIntervalSince1970: 1_795_953_600)
    static let repositories = 10

    static func state(items: Int, seed: UInt64 = 1) throws -> ForgeState {
        var random = SeededGenerator(seed: seed)
        let perRepository = items / repositories
        let repositories = try (0..<repositories).map { index in
            try repository(index: index, items: perRepository, random: &random)
        }
        return ForgeState(now: now, me: me, repositories: repositories)
    }

    private static func sha(_ value: Int) -> String {
        let hex = String(UInt64(truncatingIfNeeded: value &* 2_654_435_761), radix: 16)
        return String(repeating: "0", count: 40 - hex.count) + hex
    }

    private static func daysAgo(_ days: Double) -> Date {
        now.addingTimeInterval(-days * 86_400)
    }

    private static func repository(
        index: Int, items: Int, random: inout SeededGenerator
    ) throws -> RepositoryState {
        let path = try RepositoryPath("krz/repo\(index)")
        let issueCount = items / 2
        let mergeRequestCount = items / 5
        let buildCount = items - issueCount - mergeRequestCount
        let branches = ["main"] + (1...20).map { "feat-\($0)" }
        let labels = ["bug", "docs", "stale", "pinned", "security", "question"]
        let people = ["alice", "bob", "carol", me]
        let issues = (1...max(1, issueCount)).map { number -> IssueRecord in
            let created = daysAgo(Double.random(in: 1...700, using: &random))
            let idleDays =
                random.chance(0.2)
                ? Double.random(in: 30...400, using: &random) : Double.random(in: 0...30, using: &random)
            let updated = max(created, daysAgo(idleDays))
            let comments = (0..<Int.random(in: 0...3, using: &random)).map { offset in
                Comment(
                    author: people.randomElement(using: &random)!, body: "comment \(offset)",
                    createdAt: updated.addingTimeInterval(Double(offset - 3) * 3600))
            }
            let issue = Issue(
                number: number, title: "issue \(number)", state: random.chance(0.7) ? .open : .closed,
                author: people.randomElement(using: &random)!,
                labels: labels.filter { _ in random.chance(0.15) }, assignees: [], comments: comments,
                createdAt: created, updatedAt: updated)
            return IssueRecord(issue: issue, known: Set(ReadNeed.item))
        }
        let mergeRequests = (1...max(1, mergeRequestCount)).map { number -> MergeRequestRecord in
            let open = random.chance(0.7)
            let stacked = open && number > 1 && random.chance(0.3)
            let parent = max(1, number - 1)
            let comments =
                stacked
                ? [
                    Comment(
                        author: "system", body: "retargeted from feat-\(parent) to main: !\(parent) merged",
                        createdAt: daysAgo(2), kind: .system)
                ] : []
            let mergeRequest = MergeRequest(
                number: number, title: "change \(number)",
                state: open ? .open : (random.chance(0.7) ? .merged : .closed), draft: open && random.chance(0.4),
                author: people.randomElement(using: &random)!, source: "feat-\(number)", targetRef: "main",
                headSHA: sha(number * 7919), comments: comments, createdAt: daysAgo(30),
                updatedAt: daysAgo(Double.random(in: 0...30, using: &random)))
            return MergeRequestRecord(mergeRequest: mergeRequest, known: Set(ReadNeed.item))
        }
        let builds = (1...max(1, buildCount)).map { number -> Build in
            let roll = Double.random(in: 0..<1, using: &random)
            let status: BuildStatus = roll < 0.06 ? .pending : roll < 0.12 ? .running : roll < 0.2 ? .failure : .success
            return Build(
                number: number, job: ["build", "test", "lint"].randomElement(using: &random)!, status: status,
                sha: sha(number), ref: branches.randomElement(using: &random)!,
                createdAt: daysAgo(Double(buildCount - number) / 100))
        }
        let refs = RepositoryRefs(
            branches: branches.map {
                RepositoryRef(name: $0, sha: sha(Int.random(in: 1...max(1, buildCount), using: &random)))
            },
            tags: [RepositoryRef(name: "v1.0", sha: sha(1))])
        var repository = RepositoryState(
            path: path, defaultBranch: "main", known: Set(BuiltinPlugins.registry.needs))
        repository.refs = refs
        repository.dependencies = DependencyStatus(enabled: true, issueNumber: 1)
        repository.issues = issues
        repository.mergeRequests = mergeRequests
        repository.builds = builds
        return repository
    }
}
