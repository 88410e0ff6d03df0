/// The reply of `mr ready` and `mr draft`: `{"number","draft"}`.
///
/// `mr ready` may merge the MR at once when a merge was queued, which this reply does not show; the
/// applier re-reads the MR when that matters.
public struct DraftReply: Codable, Sendable, Hashable {
    public var number: Int
    /// The draft flag afterwards: `false` after `mr ready`, `true` after `mr draft`.
    public var draft: Bool

    public init(number: Int, draft: Bool) {
        self.number = number
        self.draft = draft
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case draft
    }
}
