import Foundation
import GitbayKit

/// Reads everything a forge-state file records about the repositories of a scope, for
/// `gitbay-bot snapshot`: unlike ``ReadPlanner`` it reads whatever any rule could consult, not what
/// given rules need, so the snapshot answers every rule offline as the server would have.
///
/// Per repository: `repo show` (default branch), `repo refs`, `label list`, `milestone list`,
/// `repo deps status` and the newest page of `build list`; across the scope, one `issue list --q`
/// and one `mr list --q` (the only listings with `updated_at`), then `issue show` / `mr show` for
/// every item they return.
public struct ForgeSnapshotReader: Sendable {
    /// The repositories to record: `repo:` and `owner:` terms, as in a rule's scope.
    public var scope: RuleScope
    /// Whether closed issues and merged or closed merge requests are recorded too (open ones always are).
    public var allStates: Bool

    public init(scope: RuleScope, allStates: Bool = false) {
        self.scope = scope
        self.allStates = allStates
    }

    /// Reads the forge through `reader`, stamping the state with `now` (the server does not say its time).
    public func read(reader: any ForgeReader, now: Date) async throws -> ForgeSnapshot {
        var report = ReadPlanner.Report()
        let me = try await reader.send(WhoAmICommand()).username
        report.steps.append(Self.step("identity: whoami", requests: 1))
        var session = ReadSession(registry: PluginRegistry(plugins: []), reader: reader)
        let paths = try await session.repositories(in: scope)
        report.steps += session.report.steps

        let everything = Set(ReadNeed.allCases)
        var repositories: [RepositoryPath: RepositoryState] = [:]
        var labels: [RepositoryPath: [IssueLabel]] = [:]
        var milestones: [RepositoryPath: [Milestone]] = [:]
        for path in paths {
            let repository = try await reader.send(RepoShowCommand(repository: path))
            let builds = try await reader.send(try BuildListCommand(repository: path)).items
            repositories[path] = RepositoryState(
                path: path, defaultBranch: repository.defaultBranch,
                refs: try await reader.send(RepoRefsCommand(repository: path)),
                dependencies: try await reader.send(RepoDepsStatusCommand(repository: path)),
                builds: builds.sorted { $0.number > $1.number }, known: everything)
            labels[path] = try await reader.send(LabelListCommand(repository: path))
            milestones[path] = try await reader.send(MilestoneListCommand(repository: path, state: .all))
        }
        report.steps.append(
            Self.step(
                "repositories: repo show, build list, repo refs, repo deps status, label list, milestone list",
                requests: paths.count * 6))

        let states = allStates ? "" : " is:open"
        let issueQuery = "\(scope) is:issue\(states)"
        let issueRows = try await reader.all(try IssueQueryCommand(query: issueQuery)).filter {
            repositories[$0.repo] != nil
        }
        report.steps.append(Self.step("issues: issue list --q \"\(issueQuery)\"", requests: Self.pages(issueRows)))
        for row in issueRows {
            var issue = try await reader.send(try IssueShowCommand(repository: row.repo, number: row.number))
            issue.updatedAt = row.updatedAt
            repositories[row.repo]?.issues.append(IssueRecord(issue: issue, known: everything))
        }
        report.steps.append(Self.step("issue details: issue show", requests: issueRows.count))

        let mergeRequestQuery = "\(scope) is:mr\(states)"
        let mergeRequestRows = try await reader.all(try MergeRequestQueryCommand(query: mergeRequestQuery)).filter {
            repositories[$0.repo] != nil
        }
        report.steps.append(
            Self.step(
                "merge requests: mr list --q \"\(mergeRequestQuery)\"", requests: Self.pages(mergeRequestRows)))
        for row in mergeRequestRows {
            var mergeRequest = try await reader.send(
                try MergeRequestShowCommand(repository: row.repo, number: row.number))
            mergeRequest.updatedAt = row.updatedAt
            repositories[row.repo]?.mergeRequests.append(
                MergeRequestRecord(mergeRequest: mergeRequest, known: everything))
        }
        report.steps.append(Self.step("merge request details: mr show", requests: mergeRequestRows.count))

        for path in paths {
            repositories[path]?.issues.sort { $0.issue.number > $1.issue.number }
            repositories[path]?.mergeRequests.sort { $0.mergeRequest.number > $1.mergeRequest.number }
        }
        var snapshot = ForgeSnapshot(
            state: ForgeState(now: now, me: me, repositories: Array(repositories.values)), labels: labels,
            milestones: milestones)
        snapshot.report = report
        return snapshot
    }

    private static func pages<Row>(_ rows: [Row]) -> Int {
        ReadPlanner.pages(rows.count)
    }

    private static func step(_ what: String, requests: Int) -> String {
        "\(what) (\(requests) request\(requests == 1 ? "" : "s"))"
    }
}
