import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A field whose value changes when one piece of forge state changes must declare the read that
/// fetches it; otherwise the planner would evaluate it on a list row that lacks that piece.
@Suite struct DeclaredNeedsTests {
    /// The fields whose values differ between `base` and `changed`.
    private func fieldsThatRead(_ kind: ItemKind, _ base: ItemContext, _ changed: ItemContext) -> [String] {
        Fixtures.registry.fields(for: kind).filter { $0.value(base) != $0.value(changed) }.map(\.name)
    }

    private func expectDeclared(_ need: ReadNeed, by names: [String], for kind: ItemKind) {
        #expect(!names.isEmpty, "the variation of \(need) changed no field; the test would prove nothing")
        for name in names {
            let needs = Fixtures.registry.field(name, for: kind)?.needs ?? []
            #expect(needs.contains(need), "\(kind.rawValue) field '\(name)' reads \(need) without declaring it")
        }
    }

    @Test func issueFields() {
        let base = Fixtures.issue()
        var labelled = base
        labelled.labels = ["stale"]
        expectDeclared(
            .labels, by: fieldsThatRead(.issues, Fixtures.context(base), Fixtures.context(labelled)), for: .issues)
        var detailed = base
        detailed.assignees = ["alice"]
        detailed.comments = [Fixtures.comment("alice", "ping", daysAgo: 1)]
        expectDeclared(
            .detail, by: fieldsThatRead(.issues, Fixtures.context(base), Fixtures.context(detailed)), for: .issues)
        var active = base
        active.updatedAt = Fixtures.ago(days: 1)
        expectDeclared(
            .activity, by: fieldsThatRead(.issues, Fixtures.context(base), Fixtures.context(active)), for: .issues)
        let tracked = Fixtures.context(base, dependencies: DependencyStatus(enabled: true, issueNumber: 188))
        expectDeclared(.dependencies, by: fieldsThatRead(.issues, Fixtures.context(base), tracked), for: .issues)
    }

    @Test func mergeRequestFields() {
        let base = Fixtures.mergeRequest(comments: [Fixtures.system(Fixtures.retargeted, daysAgo: 1)])
        let parentOpen = Fixtures.mergeRequest(number: 159, state: .open, source: "stack-1-reaper")
        let parentMerged = Fixtures.mergeRequest(number: 159, state: .merged, source: "stack-1-reaper")
        var labelled = base
        labelled.labels = ["ci"]
        expectDeclared(
            .labels, by: fieldsThatRead(.mergeRequests, Fixtures.context(base), Fixtures.context(labelled)),
            for: .mergeRequests)
        var detailed = base
        detailed.comments = []
        detailed.checksCombined = .success
        detailed.reviews = [
            Review(reviewer: "alice", verdict: .approve, counts: true, createdAt: Fixtures.ago(days: 1))
        ]
        detailed.queued = QueuedMerge(by: "cmc", queuedAt: Fixtures.ago(days: 1))
        expectDeclared(
            .detail, by: fieldsThatRead(.mergeRequests, Fixtures.context(base), Fixtures.context(detailed)),
            for: .mergeRequests)
        var active = base
        active.updatedAt = Fixtures.ago(days: 1)
        expectDeclared(
            .activity, by: fieldsThatRead(.mergeRequests, Fixtures.context(base), Fixtures.context(active)),
            for: .mergeRequests)
        expectDeclared(
            .allMergeRequests,
            by: fieldsThatRead(
                .mergeRequests, Fixtures.context(base, others: [parentOpen]),
                Fixtures.context(base, others: [parentMerged])),
            for: .mergeRequests)
    }

    @Test func buildFields() {
        let old = Fixtures.build(4213, status: .running, sha: Fixtures.sha("b2"))
        let builds = [Fixtures.build(4214, sha: Fixtures.sha("c3")), old]
        let base = Fixtures.context(old, in: Fixtures.buildRepository(builds: builds))
        let branch = Fixtures.context(
            old,
            in: Fixtures.buildRepository(
                builds: builds, branches: [RepositoryRef(name: "release", sha: Fixtures.sha("b2"))]))
        expectDeclared(.refs, by: fieldsThatRead(.builds, base, branch), for: .builds)
        let head = Fixtures.mergeRequest(number: 161, headSHA: Fixtures.sha("b2"))
        let open = Fixtures.context(old, in: Fixtures.buildRepository(builds: builds, mergeRequests: [head]))
        expectDeclared(.openMergeRequests, by: fieldsThatRead(.builds, base, open), for: .builds)
    }
}
