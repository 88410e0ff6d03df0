import Foundation

/// The dependency checker's state for a repository, as `repo deps status` returns it.
///
/// The checker opens and rewrites one tracking issue per repository (``issueNumber``); a stale-issue
/// rule must leave that issue alone. A disabled checker answers just `{"enabled":false}`.
public struct DependencyStatus: Codable, Sendable, Hashable {
    public var enabled: Bool
    public var lastCheck: Date?
    public var lastError: String?
    /// The checker's tracking issue, if it has opened one.
    public var issueNumber: Int?
    public var behind: [OutdatedDependency]

    public init(
        enabled: Bool, lastCheck: Date? = nil, lastError: String? = nil, issueNumber: Int? = nil,
        behind: [OutdatedDependency] = []
    ) {
        self.enabled = enabled
        self.lastCheck = lastCheck
        self.lastError = lastError
        self.issueNumber = issueNumber
        self.behind = behind
    }

    private enum CodingKeys: String, CodingKey {
        case enabled
        case lastCheck = "last_check"
        case lastError = "last_error"
        case issueNumber = "issue_number"
        case behind
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decodeFlag(forKey: .enabled)
        lastCheck = try container.decodeTimestampIfPresent(forKey: .lastCheck)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        issueNumber = try container.decodeIfPresent(Int.self, forKey: .issueNumber)
        behind = try container.decodeList(OutdatedDependency.self, forKey: .behind)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encodeTimestampIfPresent(lastCheck, precision: .milliseconds, forKey: .lastCheck)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(issueNumber, forKey: .issueNumber)
        try container.encodeListIfNotEmpty(behind, forKey: .behind)
    }
}
