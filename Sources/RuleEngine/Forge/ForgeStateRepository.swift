import Foundation
import GitbayKit

/// One repository of a forge-state file, in gitbay's field names (`default_branch`, `deps`...),
/// with each declared kind's list under the key its plugin gives it (`issues`).
///
/// It holds what the file says; ``repositoryState()`` adds what gitbay derives on every read.
/// Counts of labels and milestones are derived here, as `label list` and `milestone list` answer
/// them, and left out again when written. Reading and writing the lists needs the registry in the
/// coder's `userInfo` (``CodingUserInfoKey/pluginRegistry``), as ``ForgeStateFile`` puts it there.
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
    /// Each kind's records as the file holds them, normalised, before what gitbay derives across them.
    public var collections: [ItemKind: any ItemCollection]
    /// The dependency checker; `nil` when the file has no `deps`, which reads as a disabled checker.
    public var deps: DependencyStatus?
    /// An archived repository refuses every write (exit 4), so no rule acts on it.
    public var archived: Bool
    /// The bot's record of the repository's own rules file (`rule_files`): what a snapshot read,
    /// so an offline plan takes the repository's rules as the run would; `nil` when none was read.
    public var ruleFiles: RepositoryRuleFiles?

    public init(
        path: RepositoryPath, defaultBranch: String = "main", branches: [String: String] = [:],
        tags: [String: String] = [:], settings: MergeGateSettings = MergeGateSettings(), labels: [IssueLabel] = [],
        milestones: [Milestone] = [], collections: [ItemKind: any ItemCollection] = [:],
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
        self.collections = collections
        self.deps = deps
    }

    /// The file's record of what the bot knows of a repository: its items as read, what each kind
    /// records beyond them (branch tips, the dependency checker), and no labels or milestones (the
    /// engine does not keep those).
    public init(state: RepositoryState, registry: PluginRegistry) {
        self.init(
            path: state.path, defaultBranch: state.defaultBranch ?? "main", collections: state.collections,
            archived: state.archived)
        for kind in registry.kinds {
            registry.stateFileDerivation(of: kind)?.record(state, into: &self)
        }
        ruleFiles = state.ruleFiles
    }

    /// The repository as evaluation sees it: everything known, and every derived field computed the
    /// way gitbay serves it (stacks, combined checks, gates, `updated_at` defaults, sorted names,
    /// the facts each plugin keeps).
    public func repositoryState(registry: PluginRegistry) -> RepositoryState {
        var state = RepositoryState(
            path: path, defaultBranch: defaultBranch, known: Set(registry.needs), archived: archived)
        for (kind, collection) in collections {
            state.setCollection(collection, kind)
        }
        for kind in registry.kinds {
            registry.stateFileDerivation(of: kind)?.derive(&state, file: self)
        }
        state.ruleFiles = ruleFiles
        return state
    }

    public static func == (lhs: ForgeStateRepository, rhs: ForgeStateRepository) -> Bool {
        lhs.path == rhs.path && lhs.defaultBranch == rhs.defaultBranch && lhs.branches == rhs.branches
            && lhs.tags == rhs.tags && lhs.settings == rhs.settings && lhs.labels == rhs.labels
            && lhs.milestones == rhs.milestones && lhs.deps == rhs.deps && lhs.archived == rhs.archived
            && lhs.ruleFiles == rhs.ruleFiles
            && lhs.collections.holdsTheSame(as: rhs.collections)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(defaultBranch)
        hasher.combine(archived)
        collections.hash(into: &hasher)
    }

    private enum CodingKeys: String, CodingKey {
        case path
        case defaultBranch = "default_branch"
        case branches
        case tags
        case settings
        case labels
        case milestones
        case deps
        case archived
        case ruleFiles = "rule_files"
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

    /// The registry a coder was given, or an error saying the file cannot be read without one.
    private static func registry(_ userInfo: [CodingUserInfoKey: Any], path: [any CodingKey]) throws -> PluginRegistry {
        guard let registry = userInfo[.pluginRegistry] as? PluginRegistry else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path, debugDescription: "no plugin registry to read the item lists"))
        }
        return registry
    }

    public init(from decoder: any Decoder) throws {
        let registry = try Self.registry(decoder.userInfo, path: decoder.codingPath)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(RepositoryPath.self, forKey: .path)
        defaultBranch = try container.decodeIfPresent(String.self, forKey: .defaultBranch) ?? "main"
        branches = try container.decodeIfPresent([String: String].self, forKey: .branches) ?? [:]
        tags = try container.decodeIfPresent([String: String].self, forKey: .tags) ?? [:]
        settings = try container.decodeIfPresent(MergeGateSettings.self, forKey: .settings) ?? MergeGateSettings()
        deps = try container.decodeIfPresent(DependencyStatus.self, forKey: .deps)
        archived = try container.decodeIfPresent(Bool.self, forKey: .archived) ?? false
        ruleFiles = try container.decodeIfPresent(RepositoryRuleFiles.self, forKey: .ruleFiles)
        if deps != nil, try !container.nestedContainer(keyedBy: DepsKeys.self, forKey: .deps).contains(.enabled) {
            deps?.enabled = true
        }
        let lists = try decoder.container(keyedBy: StateFileKey.self)
        collections = [:]
        for kind in registry.kinds {
            guard let list = registry.stateFileList(of: kind) else { continue }
            collections[kind] = try list.decodeStateFile(from: lists, key: StateFileKey(list.stateFileKey))
        }
        // The counts come from the items, below; what the file says of them is not read.
        labels = try (container.decodeIfPresent([IssueLabel].self, forKey: .labels) ?? []).map { label in
            IssueLabel(name: label.name, color: label.color, org: label.org)
        }
        milestones = []
        if container.contains(.milestones) {
            var list = try container.nestedUnkeyedContainer(forKey: .milestones)
            while !list.isAtEnd {
                let entry = try list.nestedContainer(keyedBy: MilestoneKeys.self)
                milestones.append(
                    Milestone(
                        title: try entry.decode(String.self, forKey: .title),
                        description: try entry.decodeIfPresent(String.self, forKey: .description),
                        due: try entry.decodeIfPresent(String.self, forKey: .due),
                        state: try entry.decodeIfPresent(String.self, forKey: .state) ?? "open",
                        org: try entry.decodeIfPresent(Bool.self, forKey: .org)))
            }
        }
        // The counts `label list` and `milestone list` give: each kind adds its items'.
        var state = RepositoryState(path: path)
        for (kind, collection) in collections {
            state.setCollection(collection, kind)
        }
        var counted = self
        for kind in registry.kinds {
            registry.stateFileDerivation(of: kind)?.count(state, into: &counted)
        }
        labels = counted.labels
        milestones = counted.milestones
    }

    /// Counts items towards the milestone each names, as `milestone list` does
    /// (`internal/store/milestones.go`): `open` true counts as open, false as closed, and `nil`, a
    /// state gitbay counts neither way, not at all.
    public mutating func countMilestones(_ items: [(milestone: String?, open: Bool?)]) {
        for index in milestones.indices {
            for item in items where item.milestone == milestones[index].title {
                switch item.open {
                case true?: milestones[index].openCount += 1
                case false?: milestones[index].closedCount += 1
                case nil: break
                }
            }
        }
    }

    /// Writes the repository back; derived values (stacks, gates, counts) are left out, as gitbay
    /// recomputes them on read.
    public func encode(to encoder: any Encoder) throws {
        let registry = try Self.registry(encoder.userInfo, path: encoder.codingPath)
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
        var lists = encoder.container(keyedBy: StateFileKey.self)
        for kind in registry.kinds {
            guard let list = registry.stateFileList(of: kind), let collection = collections[kind] else { continue }
            try list.encodeStateFile(collection, to: &lists, key: StateFileKey(list.stateFileKey))
        }
        try container.encodeIfPresent(deps, forKey: .deps)
        try container.encodeIfPresent(ruleFiles, forKey: .ruleFiles)
    }
}
