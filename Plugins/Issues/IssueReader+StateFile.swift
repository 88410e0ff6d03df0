import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Issues in a forge-state file: the `issues` list of a repository, as `issue show` sends them.
extension IssueReader: StateFileList, StateFileDerivation {
    var stateFileKey: String { "issues" }

    /// The list in the file's order, as the file says it (so errors point at the right index).
    func decodeStateFile(
        from container: KeyedDecodingContainer<StateFileKey>, key: StateFileKey
    ) throws -> any ItemCollection {
        let issues = try container.decodeIfPresent([Issue].self, forKey: key) ?? []
        return Records(issues.map { IssueRecord(issue: $0, known: Set(ReadNeed.item)) })
    }

    func encodeStateFile(
        _ collection: any ItemCollection, to container: inout KeyedEncodingContainer<StateFileKey>, key: StateFileKey
    ) throws {
        let issues = (collection as? Records<IssueRecord>)?.all.map(\.issue) ?? []
        if !issues.isEmpty { try container.encode(issues, forKey: key) }
    }

    func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError) {
        let issues = (collection as? Records<IssueRecord>)?.all.map(\.issue) ?? []
        try ForgeStateFile.check(
            issues.map { ($0.number, $0.state.rawValue) }, at: path, allowed: IssueState.knownValues.map(\.rawValue),
            field: "state")
    }

    /// Newest first, as `issue list` answers, each as `issue show` sends it; the checker as
    /// `repo deps status` gives it (a file without `deps`, or with a disabled one, reads as off).
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {
        repository.issues = repository.issues.sorted { $0.number > $1.number }.map { record in
            IssueRecord(issue: Self.normalized(record.issue), known: record.known)
        }
        repository.dependencies = file.deps.flatMap { $0.enabled ? $0 : nil } ?? DependencyStatus(enabled: false)
    }

    /// The checker's state a run read, as the file's `deps`.
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        file.deps = repository.dependencies
    }

    /// Issues count towards their labels and their milestone, open or closed.
    func count(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        let issues = repository.issues.map(\.issue)
        for index in file.labels.indices {
            let count = issues.filter { $0.labels.contains(file.labels[index].name) }.count
            file.labels[index].issues = (file.labels[index].issues ?? 0) + count
        }
        file.countMilestones(issues.map { ($0.milestone, $0.state == .open) })
    }

    /// An issue as `issue show` sends it, plus `updated_at` (which defaults to `created_at`).
    private static func normalized(_ issue: Issue) -> Issue {
        var issue = issue
        issue.labels.sort()
        issue.assignees.sort()
        issue.comments = issue.comments.map(\.normalized)
        issue.updatedAt = issue.updatedAt ?? issue.createdAt
        return issue
    }
}
