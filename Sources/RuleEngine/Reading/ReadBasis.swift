/// What the caller of a read knows before it starts, so the read need not ask again.
public struct ReadBasis: Sendable {
    /// The account the reader's token belongs to (`@me`); `nil` asks the server (`whoami`).
    public var me: String?
    /// Who did what to the items (``ActivityHistory``), which every item's judgement weighs and
    /// which tells the rolling sweep where something changed; `nil` when no rule weighs it.
    public var activity: ActivityHistory?

    public init(me: String? = nil, activity: ActivityHistory? = nil) {
        self.me = me
        self.activity = activity
    }
}
