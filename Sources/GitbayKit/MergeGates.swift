/// The merge gates of an open (or `source_gone`) MR in `mr show`, with one sentence per unmet gate.
///
/// A draft is always an unmet gate, so a rule that readies stacked MRs reads `draft` and `unmet`
/// here to explain why an MR still cannot merge.
public struct MergeGates: Codable, Sendable, Hashable {
    /// Whether the MR is a draft (absent means not).
    public var draft: Bool
    public var approvalsRequired: Int
    /// Reviewers whose approval counts.
    public var approvals: [String]
    /// Reviewers who requested changes.
    public var changesRequested: [String]
    public var codeownersRequired: Bool
    /// Code owners still to approve.
    public var ownersOutstanding: [String]
    public var resolvedRequired: Bool
    public var openThreads: Int
    public var checksRequired: Bool
    /// The combined state of the head's checks, when any exist.
    public var checks: CheckState?
    /// Required contexts with no status yet; `nil` from servers that predate `require-contexts`.
    public var checksMissing: [String]?
    public var fastForward: Bool
    /// One sentence per unmet gate; empty when the MR can merge.
    public var unmet: [String]

    public init(
        draft: Bool = false, approvalsRequired: Int = 0, approvals: [String] = [], changesRequested: [String] = [],
        codeownersRequired: Bool = false, ownersOutstanding: [String] = [], resolvedRequired: Bool = false,
        openThreads: Int = 0, checksRequired: Bool = false, checks: CheckState? = nil,
        checksMissing: [String]? = nil, fastForward: Bool = false, unmet: [String] = []
    ) {
        self.draft = draft
        self.approvalsRequired = approvalsRequired
        self.approvals = approvals
        self.changesRequested = changesRequested
        self.codeownersRequired = codeownersRequired
        self.ownersOutstanding = ownersOutstanding
        self.resolvedRequired = resolvedRequired
        self.openThreads = openThreads
        self.checksRequired = checksRequired
        self.checks = checks
        self.checksMissing = checksMissing
        self.fastForward = fastForward
        self.unmet = unmet
    }

    private enum CodingKeys: String, CodingKey {
        case draft
        case approvalsRequired = "approvals_required"
        case approvals
        case changesRequested = "changes_requested"
        case codeownersRequired = "codeowners_required"
        case ownersOutstanding = "owners_outstanding"
        case resolvedRequired = "resolved_required"
        case openThreads = "open_threads"
        case checksRequired = "checks_required"
        case checks
        case checksMissing = "checks_missing"
        case fastForward = "fast_forward"
        case unmet
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        draft = try container.decodeFlag(forKey: .draft)
        approvalsRequired = try container.decodeIfPresent(Int.self, forKey: .approvalsRequired) ?? 0
        approvals = try container.decodeList(String.self, forKey: .approvals)
        changesRequested = try container.decodeList(String.self, forKey: .changesRequested)
        codeownersRequired = try container.decodeFlag(forKey: .codeownersRequired)
        ownersOutstanding = try container.decodeList(String.self, forKey: .ownersOutstanding)
        resolvedRequired = try container.decodeFlag(forKey: .resolvedRequired)
        openThreads = try container.decodeIfPresent(Int.self, forKey: .openThreads) ?? 0
        checksRequired = try container.decodeFlag(forKey: .checksRequired)
        checks = try container.decodeIfPresent(CheckState.self, forKey: .checks)
        checksMissing = try container.decodeIfPresent([String].self, forKey: .checksMissing)
        fastForward = try container.decodeFlag(forKey: .fastForward)
        unmet = try container.decodeList(String.self, forKey: .unmet)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeFlag(draft, forKey: .draft)
        try container.encode(approvalsRequired, forKey: .approvalsRequired)
        try container.encodeListIfNotEmpty(approvals, forKey: .approvals)
        try container.encodeListIfNotEmpty(changesRequested, forKey: .changesRequested)
        try container.encode(codeownersRequired, forKey: .codeownersRequired)
        try container.encodeListIfNotEmpty(ownersOutstanding, forKey: .ownersOutstanding)
        try container.encode(resolvedRequired, forKey: .resolvedRequired)
        try container.encode(openThreads, forKey: .openThreads)
        try container.encode(checksRequired, forKey: .checksRequired)
        try container.encodeIfPresent(checks, forKey: .checks)
        try container.encodeIfPresent(checksMissing, forKey: .checksMissing)
        try container.encode(fastForward, forKey: .fastForward)
        try container.encodeListIfNotEmpty(unmet, forKey: .unmet)
    }
}
