import GitbayKit

/// A repository's merge gates as a forge-state file records them under `settings`.
///
/// gitbay derives an open merge request's `gates` from these on every read, so the file keeps the
/// settings rather than the gates; every key is optional and defaults to "no gate".
public struct MergeGateSettings: Codable, Sendable, Hashable {
    /// How many counting approvals a merge needs.
    public var requireApprovals: Int
    /// Whether the head's checks must be green.
    public var requireChecks: Bool
    /// Whether every review thread must be resolved.
    public var requireResolved: Bool
    /// Whether code owners must approve.
    public var requireCodeowners: Bool

    public init(
        requireApprovals: Int = 0, requireChecks: Bool = false, requireResolved: Bool = false,
        requireCodeowners: Bool = false
    ) {
        self.requireApprovals = requireApprovals
        self.requireChecks = requireChecks
        self.requireResolved = requireResolved
        self.requireCodeowners = requireCodeowners
    }

    /// The settings a merge request's gates echo back, so a snapshot of a live server keeps them.
    public init(gates: MergeGates) {
        self.init(
            requireApprovals: gates.approvalsRequired, requireChecks: gates.checksRequired,
            requireResolved: gates.resolvedRequired, requireCodeowners: gates.codeownersRequired)
    }

    private enum CodingKeys: String, CodingKey {
        case requireApprovals = "require_approvals"
        case requireChecks = "require_checks"
        case requireResolved = "require_resolved"
        case requireCodeowners = "require_codeowners"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requireApprovals = try container.decodeIfPresent(Int.self, forKey: .requireApprovals) ?? 0
        requireChecks = try container.decodeIfPresent(Bool.self, forKey: .requireChecks) ?? false
        requireResolved = try container.decodeIfPresent(Bool.self, forKey: .requireResolved) ?? false
        requireCodeowners = try container.decodeIfPresent(Bool.self, forKey: .requireCodeowners) ?? false
    }
}
