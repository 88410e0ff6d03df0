import Foundation
import GitbayKit
import Testing

/// Each fixture decodes into its model with the real field values.
///
/// Pins the mapping of every snake_case key and the semantics the rules depend on: absent labels on
/// list rows, the stacked MR, system comments, build times in seconds.
@Suite struct FixtureDecodingTests {
    private func decode<Payload: Decodable & Sendable>(
        _ name: String, as type: Payload.Type
    ) throws -> Envelope<Payload> {
        try JSONDecoder().decode(Envelope<Payload>.self, from: Fixtures.data(name))
    }

    private func date(_ text: String) throws -> Date {
        try #require(GitbayTimestamp.parse(text))
    }

    @Test func issueListRowsHaveNoLabels() throws {
        let envelope = try decode("issue-list", as: Page<IssueRow>.self)
        #expect(envelope.protocolVersion == 1)
        #expect(envelope.exitCode == nil)
        let page = try #require(envelope.data)
        #expect(page.items.map(\.number) == [214, 213, 212])
        #expect(page.next == "aXNzdWU6MjEy")
        let row = page.items[1]
        #expect(row.title == "mr show: say which required context is missing")
        #expect(row.state == .open)
        #expect(row.author == "alice")
        #expect(row.milestone == "v1.38.0")
        #expect(row.labels == nil)
        #expect(row.assignees == nil)
        #expect(row.createdAt == (try date("2026-09-27T21:40:05.004Z")))
        #expect(page.items[0].milestone == nil)
    }

    @Test func queryRowsCarryRepoAndUpdatedAt() throws {
        let page = try #require(try decode("issue-query", as: Page<QueryItem>.self).data)
        #expect(page.items.count == 2)
        let item = page.items[1]
        #expect(item.kind == .issue)
        #expect(item.repo == (try RepositoryPath("krz/gitbay")))
        #expect(item.number == 188)
        #expect(item.issueState == .open)
        #expect(item.draft == false)
        #expect(item.milestone == "v1.38.0")
        #expect(item.createdAt == (try date("2026-08-30T12:00:41.120Z")))
        #expect(item.updatedAt == (try date("2026-09-01T09:13:02.518Z")))
        #expect(page.next == "cXVlcnk6MjAyNi0wOS0yMFQwODoxMTo0Mi4xMjBafDB8MTg4MA")
    }

    @Test func mergeRequestListShowsStackAndQueue() throws {
        let page = try #require(try decode("mr-list", as: Page<MergeRequestRow>.self).data)
        let (stacked, queued, fork) = (page.items[0], page.items[1], page.items[2])
        #expect(stacked.number == 160)
        #expect(stacked.draft)
        #expect(stacked.state == .open)
        #expect(stacked.source == "stack-2-runners")
        #expect(stacked.targetRef == "stack-1-reaper")
        #expect(stacked.headSHA == "9f2c4e1a7b3d5c6e8f90a1b2c3d4e5f6a7b8c9d0")
        #expect(stacked.stackedOn == MergeRequestRef(number: 159, title: "ci: reap abandoned builds"))
        #expect(stacked.labels == nil)
        #expect(stacked.queued == nil)
        #expect(!queued.draft)
        #expect(queued.stackedOn == nil)
        let merge = try #require(queued.queued)
        #expect(merge.by == "cmc")
        #expect(merge.strategy == "ff")
        #expect(merge.reason == "krz/gitbay requires green checks; 4b1d0c9e8f has ci/test=pending")
        #expect(merge.queuedAt == (try date("2026-09-02T10:01:00.000Z")))
        #expect(fork.source == "alice/gitbay:typo")
        #expect(page.next == "bXI6MTU4")
    }

    @Test func mergeRequestShowAfterParentMerged() throws {
        let mr = try #require(try decode("mr-show", as: MergeRequest.self).data)
        #expect(mr.number == 160)
        #expect(mr.draft)
        #expect(mr.stackedOn == nil)
        #expect(mr.targetRef == "main")
        #expect(mr.body == "Second layer of the stack.")
        #expect(mr.bodyFormat == .markdown)
        #expect(mr.labels == ["ci"])
        #expect(mr.reviewRequests.isEmpty)
        #expect(mr.stacked.isEmpty)
        #expect(mr.updatedAt == nil)
        let check = try #require(mr.checks.first)
        #expect(check.context == "ci/test")
        #expect(check.state == .success)
        #expect(check.url == "https://gitbay.org/krz/gitbay/builds/4210")
        #expect(check.duration == "1m52s")
        #expect(check.updatedAt == (try date("2026-09-02T09:41:10Z")))
        #expect(mr.checksCombined == .success)
        let comment = try #require(mr.comments.first)
        #expect(comment.isSystem)
        #expect(comment.kind == nil)
        #expect(comment.body == "retargeted from stack-1-reaper to main: !159 merged")
        let review = try #require(mr.reviews.first)
        #expect(review.reviewer == "alice")
        #expect(review.verdict == .approve)
        #expect(!review.stale)
        #expect(review.counts == true)
        let gates = try #require(mr.gates)
        #expect(gates.draft)
        #expect(gates.approvalsRequired == 1)
        #expect(gates.approvals == ["alice"])
        #expect(gates.checksRequired)
        #expect(gates.checks == .success)
        #expect(gates.checksMissing == nil)
        #expect(gates.fastForward)
        #expect(gates.unmet == ["!160 is a draft; `gitbay mr ready krz/gitbay 160` first"])
    }

    @Test func buildListHasSecondTimes() throws {
        let page = try #require(try decode("build-list", as: Page<Build>.self).data)
        #expect(page.items.map(\.status) == [.pending, .running, .pending, .failure])
        let failed = page.items[3]
        #expect(failed.number == 4211)
        #expect(failed.job == "test")
        #expect(failed.ref == "refs/merge-requests/158/head")
        #expect(failed.createdAt == (try date("2026-09-29T09:12:30Z")))
        #expect(failed.finishedAt == (try date("2026-09-29T09:14:41Z")))
        #expect(failed.failedStep == 2)
        #expect(failed.failedReason == "exit 1")
        #expect(failed.durationSeconds == 121)
        #expect(failed.subject == "docs: fix typo in CI page")
        #expect(page.items[0].finishedAt == nil)
        #expect(page.items[0].durationSeconds == nil)
        #expect(page.next == "YnVpbGQ6NDIxMQ")
    }

    @Test func writeReplies() throws {
        let cancel = try #require(try decode("build-cancel", as: BuildCancelReply.self).data)
        #expect(cancel == BuildCancelReply(number: 4213, job: "test", status: .cancelled, was: .running))
        let ready = try #require(try decode("mr-ready", as: DraftReply.self).data)
        #expect(ready == DraftReply(number: 160, draft: false))
        let merged = try #require(try decode("mr-merge", as: MergeReply.self).data)
        #expect(!merged.isQueued && merged.sha?.count == 40 && merged.strategy == "squash")
        let queued = try #require(try decode("mr-merge-queued", as: MergeReply.self).data)
        #expect(queued == MergeReply(number: 161, strategy: "merge", queued: true, reason: "checks pending: ci/test"))
        #expect(queued.isQueued)
        let labels = try #require(try decode("issue-label", as: LabelsReply.self).data)
        #expect(labels == LabelsReply(number: 188, labels: ["docs", "stale"]))
    }

    @Test func refusalOverHTTPHasExitCodeAndNoData() throws {
        let envelope = try decode("build-cancel-refused", as: BuildCancelReply.self)
        #expect(envelope.data == nil)
        #expect(envelope.exitCode == GitbayExitCode.usage.rawValue)
        #expect(envelope.error == "build 4211 is failure; only a queued or running build can be cancelled")
    }

    @Test func issueShowHasLabelsAssigneesAndComments() throws {
        let issue = try #require(try decode("issue-show", as: GitbayKit.Issue.self).data)
        #expect(issue.number == 188)
        #expect(issue.labels == ["docs"])
        #expect(issue.assignees == ["alice"])
        #expect(issue.bodyFormat == .markdown)
        #expect(issue.updatedAt == nil)
        // gitbay sends no `kind` (control/thread.go commentOut, `json:"-"`): the author decides.
        #expect(issue.comments.map(\.isSystem) == [false, true])
        #expect(issue.comments.allSatisfy { $0.kind == nil })
        #expect(issue.comments[1].author == "system")
    }

    @Test func labelListWithCountsAndOrgFlag() throws {
        let labels = try #require(try decode("label-list", as: [IssueLabel].self).data)
        #expect(labels.map(\.name) == ["bug", "ci", "stale"])
        #expect(labels[0].org == true)
        #expect(labels[0].issues == 12)
        #expect(labels[0].mergeRequests == 1)
        #expect(labels[1].color == nil)
        #expect(labels[1].org == nil)
        #expect(labels[1].displayColor == "#1a7f37")
        #expect(labels[2].displayColor == "#616161")
    }

    @Test func milestoneAndRepositoryRows() throws {
        let milestones = try #require(try decode("milestone-list", as: [Milestone].self).data)
        #expect(milestones[0].due == "2026-10-15")
        #expect(milestones[0].openCount == 12)
        #expect(milestones[0].closedCount == 30)
        #expect(milestones[1].org == true)
        let repos = try #require(try decode("repo-list", as: Page<RepositorySummary>.self).data)
        #expect(repos.items.map(\.path.owner) == ["krz", "krz"])
        #expect(repos.items[0].visibility == .public)
        #expect(!repos.items[0].archived)
        #expect(repos.items[1].archived)
        #expect(repos.items[1].visibility == .private)
    }

    @Test func repositoryShowRefsDepsAndIdentity() throws {
        let repo = try #require(try decode("repo-show", as: Repository.self).data)
        #expect(repo.path.description == "krz/gitbay")
        #expect(repo.defaultBranch == "main")
        #expect(repo.protectedBranches == ["main", "release"])
        #expect(repo.mirrors.first?.lastSync == "2026-09-01T00:00:00Z")
        #expect(repo.forkOf == "upstream/gitbay")
        #expect(repo.watch == "watching")
        #expect(repo.bookmarked)
        #expect(!repo.archived)
        let refs = try #require(try decode("repo-refs", as: RepositoryRefs.self).data)
        #expect(refs.branches.map(\.name) == ["feat-x", "main"])
        #expect(refs.tags.first?.sha == "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9")
        let deps = try #require(try decode("deps-status", as: DependencyStatus.self).data)
        #expect(deps.enabled)
        #expect(deps.issueNumber == 201)
        #expect(deps.lastCheck == (try date("2026-09-28T06:00:00Z")))
        #expect(deps.behind.first?.latest == "v0.27.0")
        let disabled = try #require(try decode("deps-disabled", as: DependencyStatus.self).data)
        #expect(disabled == DependencyStatus(enabled: false))
        let identity = try #require(try decode("whoami", as: Identity.self).data)
        #expect(identity == Identity(username: "triage-bot", admin: false, keyScope: "full"))
    }
}
