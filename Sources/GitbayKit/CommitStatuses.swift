/// The reply of `status list`: `{"sha","combined","statuses"}`, one status per context.
///
/// gitbay sends `combined` as `""` and `statuses` as `null` for a commit without any
/// (`internal/control/status.go` `runStatusList`); both read as empty here.
public struct CommitStatuses: Codable, Sendable, Hashable {
    public var sha: String
    /// The worst state, `nil` when the commit has no status.
    public var combined: CheckState?
    public var statuses: [CommitStatus]

    public init(sha: String, combined: CheckState? = nil, statuses: [CommitStatus] = []) {
        self.sha = sha
        self.combined = combined
        self.statuses = statuses
    }

    private enum CodingKeys: String, CodingKey {
        case sha
        case combined
        case statuses
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sha = try container.decode(String.self, forKey: .sha)
        let combined = try container.decodeIfPresent(String.self, forKey: .combined) ?? ""
        self.combined = combined.isEmpty ? nil : CheckState(rawValue: combined)
        statuses = try container.decodeList(CommitStatus.self, forKey: .statuses)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sha, forKey: .sha)
        try container.encode(combined?.rawValue ?? "", forKey: .combined)
        if statuses.isEmpty {
            try container.encodeNil(forKey: .statuses)
        } else {
            try container.encode(statuses, forKey: .statuses)
        }
    }
}
