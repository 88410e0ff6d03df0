import Foundation
import GitbayKit

/// One repository of a forge-state file, in gitbay's field names (`default_branch`, `merge_requests`,
/// `deps`...), decoded into GitbayKit's wire models.
///
/// It holds what the file says; ``repositoryState()`` adds what gitbay derives on every read. Counts
/// of labels and milestones are derived here, as `label list` and `milestone list` answer them, and
/// left out again when written.
public struct ForgeStateRepository: Codable, Sendable, Hashable {
    public var path: RepositoryPath
    /// The default branch; `main` when the file does not say.
    public var defaultBranch: String
    /// Branch name to tip sha.
    public var branches: [String: String]
    /// Tag name to sha.
    public var tags: [String: String]
    /// The merge gates open merge requests are judged by.
    public var settings: MergeGateSettings
    public var labels: [IssueLabel]
    public var milestones: [Milestone]
    public var issues: [Issue]
    public var mergeRequests: [MergeRequest]
    public var builds: [Build]
    /// The dependency checker; `nil` when the file has no `deps`, which reads as a disabled checker.
    public var deps: DependencyStatus?
    /// An archived repository refuses every write (exit 4), so no rule acts on it.
    public var archived: Bool

    public init(
        path: RepositoryPath, defaultBranch: String = "main", branches: [String: String] = [:],
        tags: [String: String] = [:], settings: MergeGateSettings = MergeGateSettings(), labels: [IssueLabel] = [],
        milestones: [Milestone] = [], issues: [Issue] = [], mergeRequests: [MergeRequest] = [], builds: [Build] = [],
        deps: DependencyStatus? = nil, archived: Bool = false
    ) {
        self.path = path
        self.archived = archived
        self.defaultBranch = defaultBranch
        self.branches = branches
        self.tags = tags
        self.settings = settings
        self.labels = labels
        self.milestones = milestones
        self.issues = issues
        self.mergeRequests = mergeRequests
        self.builds = builds
        self.deps = deps
    }

    /// The file's record of what the bot knows of a repository: its items as read, settings echoed by
    /// any merge request's gates, and no labels or milestones (the engine does not keep those).
    public init(state: RepositoryState) {
        let gates = state.mergeRequests.lazy.compactMap(\.mergeRequest.gates).first
        self.init(
            path: state.path, defaultBranch: state.defaultBranch ?? "main",
            branches: Dictionary(state.refs?.branches.map { ($0.name, $0.sha) } ?? [], uniquingKeysWith: { $1 }),
            tags: Dictionary(state.refs?.tags.map { ($0.name, $0.sha) } ?? [], uniquingKeysWith: { $1 }),
            settings: gates.map(MergeGateSettings.init(gates:)) ?? MergeGateSettings(),
            issues: state.issues.map(\.issue), mergeRequests: state.mergeRequests.map(\.mergeRequest),
            builds: state.builds, deps: state.dependencies, archived: state.archived)
    }

    /// The repository as evaluation sees it: everything known, and every derived field computed the
    /// way gitbay serves it (stacks, combined checks, gates, `updated_at` defaults, sorted names).
    public func repositoryState() -> RepositoryState {
        let issues = issues.sorted { $0.number > $1.number }.map(Self.normalized)
        let mergeRequests = ForgeDerivation.derive(
            mergeRequests.sorted { $0.number > $1.number }.map(Self.normalized), path: path, settings: settings)
        let everything = Set(ReadNeed.allCases)
        return RepositoryState(
            path: path, defaultBranch: defaultBranch,
            refs: RepositoryRefs(
                branches: branches.sorted { $0.key < $1.key }.map { RepositoryRef(name: $0.key, sha: $0.value) },
                tags: tags.sorted { $0.key < $1.key }.map { RepositoryRef(name: $0.key, sha: $0.value) }),
            dependencies: deps.flatMap { $0.enabled ? $0 : nil } ?? DependencyStatus(enabled: false),
            issues: issues.map { IssueRecord(issue: $0, known: everything) },
            mergeRequests: mergeRequests.map { MergeRequestRecord(mergeRequest: $0, known: everything) },
            builds: builds.sorted { $0.number > $1.number }, known: everything, archived: archived)
    }

    /// An issue as `issue show` sends it, plus `updated_at` (which defaults to `created_at`).
    private static func normalized(_ issue: Issue) -> Issue {
        var issue = issue
        issue.labels.sort()
        issue.assignees.sort()
        issue.comments = issue.comments.map(normalized)
        issue.updatedAt = issue.updatedAt ?? issue.createdAt
        return issue
    }

    /// A merge request as `mr show` sends it, before derivation, plus `updated_at` (default `created_at`).
    private static func normalized(_ mergeRequest: MergeRequest) -> MergeRequest {
        var mergeRequest = mergeRequest
        mergeRequest.labels.sort()
        mergeRequest.reviewRequests.sort()
        mergeRequest.comments = mergeRequest.comments.map(normalized)
        mergeRequest.updatedAt = mergeRequest.updatedAt ?? mergeRequest.createdAt
        return mergeRequest
    }

    /// A comment as gitbay sends it: `kind` is `comment` unless the file says otherwise.
    private static func normalized(_ comment: GitbayKit.Comment) -> GitbayKit.Comment {
        var comment = comment
        comment.kind = comment.kind ?? .comment
        return comment
    }

    private enum CodingKeys: String, CodingKey {
        case path
        case defaultBranch = "default_branch"
        case branches
        case tags
        case settings
        case labels
        case milestones
        case issues
        case mergeRequests = "merge_requests"
        case builds
        case deps
        case archived
    }

    private enum MilestoneKeys: String, CodingKey {
        case title
        case description
        case due
        case state
        case org
    }

    private enum DepsKeys: String, CodingKey {
        case enabled
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(RepositoryPath.self, forKey: .path)
        defaultBranch = try container.decodeIfPresent(String.self, forKey: .defaultBranch) ?? "main"
        branches = try container.decodeIfPresent([String: String].self, forKey: .branches) ?? [:]
        tags = try container.decodeIfPresent([String: String].self, forKey: .tags) ?? [:]
        settings = try container.decodeIfPresent(MergeGateSettings.self, forKey: .settings) ?? MergeGateSettings()
        issues = try container.decodeIfPresent([Issue].self, forKey: .issues) ?? []
        mergeRequests = try container.decodeIfPresent([MergeRequest].self, forKey: .mergeRequests) ?? []
        builds = try container.decodeIfPresent([Build].self, forKey: .builds) ?? []
        deps = try container.decodeIfPresent(DependencyStatus.self, forKey: .deps)
        archived = try container.decodeIfPresent(Bool.self, forKey: .archived) ?? false
        if deps != nil, try !container.nestedContainer(keyedBy: DepsKeys.self, forKey: .deps).contains(.enabled) {
            deps?.enabled = true
        }
        let issues = issues
        let mergeRequests = mergeRequests
        labels = try (container.decodeIfPresent([IssueLabel].self, forKey: .labels) ?? []).map { label in
            var label = label
            label.issues = issues.filter { $0.labels.contains(label.name) }.count
            label.mergeRequests = mergeRequests.filter { $0.labels.contains(label.name) }.count
            return label
        }
        milestones = []
        if container.contains(.milestones) {
            var list = try container.nestedUnkeyedContainer(forKey: .milestones)
            while !list.isAtEnd {
                let entry = try list.nestedContainer(keyedBy: MilestoneKeys.self)
                let title = try entry.decode(String.self, forKey: .title)
                let inMilestone = issues.filter { $0.milestone == title }
                milestones.append(
                    Milestone(
                        title: title, description: try entry.decodeIfPresent(String.self, forKey: .description),
                        due: try entry.decodeIfPresent(String.self, forKey: .due),
                        state: try entry.decodeIfPresent(String.self, forKey: .state) ?? "open",
                        org: try entry.decodeIfPresent(Bool.self, forKey: .org),
                        openCount: inMilestone.filter { $0.state == .open }.count,
                        closedCount: inMilestone.filter { $0.state != .open }.count))
            }
        }
    }

    /// Writes the repository back; derived values (stacks, gates, counts) are left out, as gitbay
    /// recomputes them on read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if archived {
            try container.encode(true, forKey: .archived)
        }
        try container.encode(path, forKey: .path)
        try container.encode(defaultBranch, forKey: .defaultBranch)
        if !branches.isEmpty { try container.encode(branches, forKey: .branches) }
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        if settings != MergeGateSettings() { try container.encode(settings, forKey: .settings) }
        if !labels.isEmpty {
            try container.encode(
                labels.map { IssueLabel(name: $0.name, color: $0.color, org: $0.org) }, forKey: .labels)
        }
        if !milestones.isEmpty {
            var list = container.nestedUnkeyedContainer(forKey: .milestones)
            for milestone in milestones {
                var entry = list.nestedContainer(keyedBy: MilestoneKeys.self)
                try entry.encode(milestone.title, forKey: .title)
                try entry.encodeIfPresent(milestone.description, forKey: .description)
                try entry.encodeIfPresent(milestone.due, forKey: .due)
                try entry.encode(milestone.state, forKey: .state)
                try entry.encodeIfPresent(milestone.org, forKey: .org)
            }
        }
        if !issues.isEmpty { try container.encode(issues, forKey: .issues) }
        if !mergeRequests.isEmpty {
            let stored = mergeRequests.map { mergeRequest in
                var mergeRequest = mergeRequest
                mergeRequest.stackedOn = nil
                mergeRequest.stacked = []
                mergeRequest.gates = nil
                return mergeRequest
            }
            try container.encode(stored, forKey: .mergeRequests)
        }
        if !builds.isEmpty { try container.encode(builds, forKey: .builds) }
        try container.encodeIfPresent(deps, forKey: .deps)
    }
}
