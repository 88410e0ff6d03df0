import GitbayKit
import IssuesPlugin
import RuleEngine
import Testing

/// What a ``ReadPolicy`` keeps of the choices it is made with: the rules of which go together are
/// applied once, when it is made, and the read planner follows what is left.
@Suite struct ReadPolicyTests {
    private let cache = InMemoryStateStore()

    /// Whether `policy` keeps details in this test's cache.
    private func keptInCache(_ policy: ReadPolicy) -> Bool {
        (policy.keptIn as? InMemoryStateStore) === cache
    }

    @Test func aGuardedReadKeepsEverythingItIsGiven() {
        let guards = EvaluationOptions(maxActions: 7)
        let policy = ReadPolicy(.guarded(guards), cache: .trusts(cache), sweepPeriod: 3_600, readBudget: 40)
        #expect(policy.guards == guards && policy.targets == nil)
        #expect(policy.trustsCache && keptInCache(policy))
        #expect(policy.sweepPeriod == 3_600 && policy.readBudget == 40)
        #expect(policy.sweepSkips && policy.readsActivityForSweep && policy.readsFeed)
    }

    /// An audit shows every item as the server has it now: no copy stands in, none is skipped by
    /// the sweep, and no budget leaves a repository unread; the copies are still refreshed and
    /// marked, so the feed is read for the sweep.
    @Test func anAuditTrustsNoCopyAndHasNoBudget() {
        let policy = ReadPolicy(.audit, cache: .trusts(cache), sweepPeriod: 3_600, readBudget: 40)
        #expect(policy.guards == nil)
        #expect(!policy.trustsCache && keptInCache(policy))
        #expect(policy.readBudget == nil && policy.sweepPeriod == 3_600)
        #expect(!policy.sweepSkips && policy.readsActivityForSweep)
    }

    @Test func aCacheNotTrustedIsStillRefreshedAndLetsTheSweepSkipNothing() {
        let policy = ReadPolicy(.guarded(EvaluationOptions()), cache: .refreshes(cache), sweepPeriod: 3_600)
        #expect(!policy.trustsCache && keptInCache(policy))
        #expect(!policy.sweepSkips && policy.readsActivityForSweep)
    }

    /// A `watch` pass about chosen items reads every repository it looks at, and its poll read the feed.
    @Test func aPassAboutTargetsKeepsNoSweepAndReadsNoFeed() {
        var targets = WatchTargets()
        targets.items = ["krz/app#7"]
        let guards = EvaluationOptions()
        let policy = ReadPolicy(
            .targets(targets, guards: guards), cache: .trusts(cache), sweepPeriod: 3_600, readBudget: 40)
        #expect(policy.targets == targets && policy.guards == guards)
        #expect(policy.trustsCache && policy.sweepPeriod == nil && policy.readBudget == nil)
        #expect(!policy.readsFeed && !policy.readsActivityForSweep)
    }

    @Test func oneItemIsReadAfreshAndKeepsNothing() throws {
        let item = ItemReference(repository: try RepositoryPath("krz/app"), kind: .issues, key: "31", separator: "#")
        let policy = ReadPolicy(.item(item), cache: .trusts(cache), sweepPeriod: 3_600, readBudget: 40)
        #expect(policy.guards == nil && policy.keptIn == nil && !policy.trustsCache)
        #expect(policy.sweepPeriod == nil && policy.readBudget == nil && policy.readsFeed)
    }
}
