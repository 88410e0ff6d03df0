import Foundation

/// Which attempted actions `history` should list; every filter left `nil` lets everything through.
public struct HistoryQuery: Sendable, Hashable {
    /// An item as the journal writes it (`owner/name#12`, `owner/name!12`, `owner/name/builds/4213`),
    /// matched exactly.
    public var item: String?
    /// A rule's name, matched exactly.
    public var rule: String?
    /// Only actions attempted (or planned) at or after this time.
    public var since: Date?
    /// At most this many, the newest.
    public var limit: Int?

    public init(item: String? = nil, rule: String? = nil, since: Date? = nil, limit: Int? = nil) {
        self.item = item
        self.rule = rule
        self.since = since
        self.limit = limit
    }
}
