/// Reads the activity feed a page at a time, newest first: `feed --limit n [--cursor c]`.
///
/// The cursor pages backwards in time (kind `feed`, keyed by event id); there is no "since" flag,
/// so a reader takes the events newer than the last one it saw and pages back only while a page
/// holds nothing older (docs/gitbay/protocol.md#feed).
public struct FeedCommand: PagedCommand, Hashable {
    public typealias Item = FeedEvent
    public typealias Response = Page<FeedEvent>

    public static var effect: CommandEffect { .read }

    /// Rows per page; a value set later is clamped to 1–200.
    public var limit: Int { didSet { limit = CommandValidation.clampedLimit(limit) } }
    public var cursor: String?

    /// Refuses limits outside 1–200.
    public init(limit: Int = 50, cursor: String? = nil) throws(GitbayCommandError) {
        self.limit = try CommandValidation.limit(limit)
        self.cursor = cursor
    }

    public var argv: [String] { ["feed"] + pagingArguments }
}
