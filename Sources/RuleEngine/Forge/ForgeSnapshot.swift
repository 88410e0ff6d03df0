import GitbayKit

/// A forge as `gitbay-bot snapshot` recorded it: the state evaluation reads, plus the labels it does
/// not, so the written file also serves the simulator and other tools.
public struct ForgeSnapshot: Sendable {
    /// Everything known about the repositories in scope.
    public var state: ForgeState
    /// Each repository's labels, as `label list` answered.
    public var labels: [RepositoryPath: [IssueLabel]]
    /// What was read and how many requests it took, for `--verbose`.
    public var report: ReadPlanner.Report
    /// The kinds the file records, with how each writes its list.
    public let registry: PluginRegistry

    public init(
        state: ForgeState, registry: PluginRegistry, labels: [RepositoryPath: [IssueLabel]] = [:]
    ) {
        self.state = state
        self.registry = registry
        self.labels = labels
        self.report = ReadPlanner.Report()
    }

    /// The forge-state file to write (`docs/forge-state.md`); it holds no credential of any kind.
    public var file: ForgeStateFile {
        ForgeStateFile(state: state, registry: registry, labels: labels)
    }
}
