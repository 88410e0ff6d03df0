import Foundation

/// One commit status on an MR's head in `mr show`: `{"context","state","url"?,"updated_at","duration"?}`.
///
/// Rules read it to avoid cancelling a build whose context an open MR still needs.
public struct Check: Codable, Sendable, Hashable {
    /// The status context, such as `ci/test`.
    public var context: String
    public var state: CheckState
    public var url: String?
    public var updatedAt: Date
    /// A human duration such as `1m52s`, when known.
    public var duration: String?

    public init(context: String, state: CheckState, url: String? = nil, updatedAt: Date, duration: String? = nil) {
        self.context = context
        self.state = state
        self.url = url
        self.updatedAt = updatedAt
        self.duration = duration
    }

    private enum CodingKeys: String, CodingKey {
        case context
        case state
        case url
        case updatedAt = "updated_at"
        case duration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        context = try container.decode(String.self, forKey: .context)
        state = try container.decode(CheckState.self, forKey: .state)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        updatedAt = try container.decodeTimestamp(forKey: .updatedAt)
        duration = try container.decodeIfPresent(String.self, forKey: .duration)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(context, forKey: .context)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeTimestamp(updatedAt, precision: .milliseconds, forKey: .updatedAt)
        try container.encodeIfPresent(duration, forKey: .duration)
    }
}
