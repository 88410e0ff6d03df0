import ArgumentParsing
import BuiltinPlugins
import RuleEngine
import Testing

@testable import BotCLI

/// The read policy each command resolves from its settings, without a server or a file: what
/// `run`, `plan`, a `watch` pass and `explain` read, and what they do with the read cache.
@Suite struct ReadPolicyResolutionTests {
    private let cache = InMemoryStateStore()

    /// Whether `policy` keeps details in this test's cache.
    private func keptInCache(_ policy: ReadPolicy) -> Bool {
        (policy.keptIn as? InMemoryStateStore) === cache
    }
    private let guards = EvaluationOptions(maxActions: 9)

    /// The settings of `arguments` (a command and its options), with no configuration file.
    private func settings(_ arguments: [String]) throws -> Settings {
        guard
            case .run(let invocation) = CommandParser.parse(
                arguments, root: BotCommandTable.root, width: 80, shell: nil)
        else {
            Issue.record("\(arguments) did not parse")
            throw CommandFailure("no invocation", code: .usage)
        }
        return try Settings.resolve(CommandLineSettings(invocation, use: []), environment: [:])
    }

    @Test func runIsGuardedTrustsTheCacheAndKeepsTheSweep() throws {
        let policy = ReadPolicy(
            .run(readAll: false, noCache: false), settings: try settings(["run"]), guards: guards, cache: cache)
        #expect(policy.scope == .guarded(guards))
        #expect(policy.trustsCache && keptInCache(policy))
        #expect(policy.sweepPeriod == RepositorySweep.defaultPeriod && policy.readBudget == nil)
        #expect(policy.readsFeed && policy.sweepSkips)
    }

    @Test func runTakesTheSweepPeriodAndTheReadBudgetGiven() throws {
        let settings = try settings(["run", "--sweep-period", "2h", "--read-budget", "30"])
        let policy = ReadPolicy(.run(readAll: false, noCache: false), settings: settings, guards: guards, cache: cache)
        #expect(policy.sweepPeriod == 7_200 && policy.readBudget == 30)
    }

    /// `--sweep-period 0` reads every repository each run, and so reads the feed only for the
    /// rules that weigh it.
    @Test func aSweepPeriodOfZeroKeepsNoSweep() throws {
        let settings = try settings(["plan", "--sweep-period", "0"])
        let policy = ReadPolicy(.run(readAll: false, noCache: false), settings: settings, guards: guards, cache: cache)
        #expect(policy.sweepPeriod == nil && !policy.readsActivityForSweep && !policy.sweepSkips)
    }

    /// `--read-all` is an audit: every detail, no copy trusted (still refreshed), no budget.
    @Test func planReadAllIsAnAudit() throws {
        let settings = try settings(["plan", "--read-all", "--read-budget", "30"])
        let policy = ReadPolicy(.run(readAll: true, noCache: false), settings: settings, guards: guards, cache: cache)
        #expect(policy.scope == .audit && policy.guards == nil)
        #expect(!policy.trustsCache && keptInCache(policy))
        #expect(policy.readBudget == nil && !policy.sweepSkips && policy.readsActivityForSweep)
    }

    @Test func planNoCacheRefreshesTheCacheUnderItsGuards() throws {
        let policy = ReadPolicy(
            .run(readAll: false, noCache: true), settings: try settings(["plan", "--no-cache"]), guards: guards,
            cache: cache)
        #expect(policy.scope == .guarded(guards))
        #expect(!policy.trustsCache && keptInCache(policy) && !policy.sweepSkips)
    }

    /// A full pass reads everything its guards let it, trusting the cache, with no sweep: every
    /// repository a pass looks at is read.
    @Test func aFullWatchPassIsGuardedWithoutASweep() throws {
        let settings = try settings(["watch"])
        let policy = ReadPolicy(.pass(nil), settings: settings, guards: guards, cache: cache)
        #expect(policy.scope == .guarded(guards) && policy.trustsCache)
        #expect(policy.sweepPeriod == nil && policy.readBudget == nil && policy.readsFeed)
    }

    /// An events pass reads its targets alone, and takes who did what from its own poll.
    @Test func anEventsPassReadsItsTargetsAndNoFeed() throws {
        var targets = WatchTargets()
        targets.items = ["krz/app#7"]
        let policy = ReadPolicy(.pass(targets), settings: try settings(["watch"]), guards: guards, cache: cache)
        #expect(policy.scope == .targets(targets, guards: guards) && policy.trustsCache)
        #expect(!policy.readsFeed && policy.sweepPeriod == nil && policy.readBudget == nil)
    }

    @Test func explainReadsItsItemAfreshAndKeepsNothing() throws {
        let item = try #require(BuiltinPlugins.registry.reference(parsing: "krz/gitbay#31"))
        let policy = ReadPolicy(
            .item(item), settings: try settings(["explain", "krz/gitbay#31"]), guards: guards, cache: cache)
        #expect(policy.scope == .item(item) && policy.guards == nil)
        #expect(policy.keptIn == nil && !policy.trustsCache && policy.sweepPeriod == nil && policy.readBudget == nil)
    }
}
