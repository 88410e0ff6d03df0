import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Synchronization
import Testing

/// A feed as gitbay pages it: newest first, `limit` a page, the cursor the last id of a page.
private final class FeedForge: ForgeReader {
    let events: [FeedEvent]
    let requests = Mutex(0)

    init(ids: [Int], repo: String = "krz/app", actor: String = "alice", kind: String = "issue.commented") throws {
        events = try ids.sorted(by: >).map {
            FeedEvent(
                id: $0, repo: try RepositoryPath(repo), actor: actor, kind: kind, number: $0,
                createdAt: Date(timeIntervalSince1970: Double($0)))
        }
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        guard let feed = command as? FeedCommand else { throw GitbayError(kind: .usage, message: "not faked") }
        requests.withLock { $0 += 1 }
        let below = feed.cursor.flatMap { Int($0) } ?? Int.max
        let rows = events.filter { $0.id < below }
        let page = Array(rows.prefix(feed.limit))
        let next = rows.count > feed.limit ? page.last.map { String($0.id) } : nil
        guard let response = Page(items: page, next: next) as? Command.Response else {
            throw GitbayError(kind: .usage, message: "not faked")
        }
        return response
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw GitbayError(kind: .usage, message: "not faked")
    }
}

/// Reading the feed from the last event handled: everything newer, oldest first, and a gap only
/// when the feed cannot show that nothing was missed.
@Suite struct FeedPollTests {
    @Test func theEventsAfterTheLastOneComeOldestFirstFromOnePage() async throws {
        let forge = try FeedForge(ids: Array(1...30))
        let poll = try await FeedPoll.read(after: 27, reader: forge)
        #expect(poll.events.map(\.id) == [28, 29, 30])
        #expect(poll.newest == 30 && !poll.gap && poll.requests == 1)
    }

    @Test func itPagesBackUntilItMeetsTheLastOne() async throws {
        let forge = try FeedForge(ids: Array(1...130))
        let poll = try await FeedPoll.read(after: 12, reader: forge, pageSize: 50)
        #expect(poll.events.map(\.id) == Array(13...130))
        #expect(!poll.gap && poll.requests == 3)
    }

    /// Ids need not be consecutive: the feed shows the repositories the account reaches.
    @Test func idsWithHolesAreNoGap() async throws {
        let forge = try FeedForge(ids: [2, 9, 40, 41])
        let poll = try await FeedPoll.read(after: 9, reader: forge)
        #expect(poll.events.map(\.id) == [40, 41] && !poll.gap)
    }

    /// A feed whose newest event is older than the position is a gap, and the position follows it.
    ///
    /// gitbay's `events.id` is `INTEGER PRIMARY KEY` without AUTOINCREMENT
    /// (`internal/store/migrations/0001_init.up.sql`): when the newest events go (a repository
    /// deleted cascades its events), SQLite hands their ids out again, and what came under them
    /// cannot be told from what was handled.
    @Test func aFeedWhoseNewestIsBelowThePositionIsAGap() async throws {
        let reissued = try FeedForge(ids: Array(1...95))
        let poll = try await FeedPoll.read(after: 100, reader: reissued)
        #expect(poll.gap, "ids 95 and below may be new events under reissued ids")
        #expect(poll.newest == 95)
        let read = try await FeedRead.read(after: 100, reader: reissued, pages: 5)
        #expect(read.wentBack && !read.reachedPosition)
        let ahead = try await FeedRead.read(after: 90, reader: reissued, pages: 5)
        #expect(!ahead.wentBack && ahead.reachedPosition)
    }

    @Test func aFeedThatNoLongerReachesBackIsAGap() async throws {
        let pruned = try FeedForge(ids: Array(100...120))
        let ended = try await FeedPoll.read(after: 50, reader: pruned)
        #expect(ended.gap && ended.newest == 120)
        let long = try FeedForge(ids: Array(100...1200))
        let tooFar = try await FeedPoll.read(after: 50, reader: long, pageSize: 50, maxPages: 3)
        #expect(tooFar.gap && tooFar.requests == 3)
    }

    @Test func aFirstStartReadsOneEventAndAnEmptyFeedBeginsAtZero() async throws {
        let first = try await FeedPoll.read(after: nil, reader: try FeedForge(ids: [5, 6]))
        #expect(first.gap && first.newest == 6 && first.requests == 1 && first.events.isEmpty)
        let empty = try await FeedPoll.read(after: nil, reader: try FeedForge(ids: []))
        #expect(empty.newest == 0)
        let afterEmpty = try await FeedPoll.read(after: 0, reader: try FeedForge(ids: [1, 2]))
        #expect(afterEmpty.events.map(\.id) == [1, 2] && !afterEmpty.gap)
    }
}

/// Which items a batch of events affects, as the built-in plugins judge it.
@Suite struct WatchTargetsTests {
    private func event(_ kind: String, _ number: Int?, actor: String = "alice") throws -> FeedEvent {
        FeedEvent(
            id: 1, repo: try RepositoryPath("krz/app"), actor: actor, kind: kind, number: number, createdAt: Date())
    }

    private let kinds: [ItemKind] = [.issues, .mergeRequests]

    @Test func anIssueCommentTakesThatIssueAlone() throws {
        let targets = WatchTargets.of(
            [try event("issue.commented", 7)], me: "triage-bot", kinds: kinds, registry: BuiltinPlugins.registry)
        #expect(targets.items == ["krz/app#7"] && targets.wholeKinds.isEmpty)
    }

    /// A merge retargets what was stacked on it with no event of its own.
    @Test func aMergeTakesEveryMergeRequestOfItsRepository() throws {
        let targets = WatchTargets.of(
            [try event("mr.merged", 3)], me: "triage-bot", kinds: kinds, registry: BuiltinPlugins.registry)
        let app = try RepositoryPath("krz/app")
        #expect(targets.wholeKinds == [app: [.mergeRequests]])
        #expect(targets.contains("krz/app!9", kind: .mergeRequests, in: app))
        #expect(!targets.contains("krz/app#9", kind: .issues, in: app))
    }

    /// A pass lists only the repositories something happened in, each rule within its own scope.
    @Test func rulesAreNarrowedToTheRepositoriesAffected() throws {
        let targets = WatchTargets.of(
            [try event("issue.commented", 7)], me: "triage-bot", kinds: kinds, registry: BuiltinPlugins.registry)
        let source =
            "rules:\n  - name: a\n    on: issues\n    scope: owner:krz\n    when:\n      - state = open\n"
            + "    do:\n      - close\n  - name: b\n    on: issues\n    scope: repo:alice/other\n    when:\n"
            + "      - state = open\n    do:\n      - close\n"
        let rules = RuleSet.load(files: [(path: "r.yml", bytes: Array(source.utf8))], registry: BuiltinPlugins.registry)
            .rules
        #expect(rules.count == 2)
        let scoped = targets.scoped(rules)
        #expect(scoped.map(\.name) == ["a"])
        #expect(scoped.first?.scope == RuleScope(terms: [.repository("krz/app")]))
    }

    @Test func theBotsOwnEventsAndUnknownOnesAreTreatedApart() throws {
        let own = WatchTargets.of(
            [try event("issue.labeled", 7, actor: "triage-bot")], me: "triage-bot", kinds: kinds,
            registry: BuiltinPlugins.registry)
        #expect(own.isEmpty && own.ownEvents == 1)
        let unknown = WatchTargets.of(
            [try event("repo.archived", nil)], me: "triage-bot", kinds: kinds, registry: BuiltinPlugins.registry)
        #expect(unknown.wholeKinds[try RepositoryPath("krz/app")] == [.issues, .mergeRequests])
    }

    @Test func aProbeIsPolledOnlyForKindsThatWatchItsFamily() {
        #expect(WatchTargets.probes(for: [.issues], registry: BuiltinPlugins.registry).isEmpty)
        #expect(
            WatchTargets.probes(for: [.builds], registry: BuiltinPlugins.registry).map(\.eventKind) == ["mr.updated"])
        #expect(WatchTargets.probes(for: [.mergeRequests, .issues], registry: BuiltinPlugins.registry).count == 1)
    }
}
