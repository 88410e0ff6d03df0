/// One row of `milestone list`: `{"title","description"?,"due"?,"state","org"?,"open","closed"}`.
///
/// Lets rules check a milestone title exists before `issue milestone` (an unknown title exits 3).
public struct Milestone: Codable, Sendable, Hashable {
    public var title: String
    public var description: String?
    /// The due date as `YYYY-MM-DD` (a calendar day, not a timestamp).
    public var due: String?
    /// `open` or `closed`.
    public var state: String
    /// Whether the milestone belongs to the organisation.
    public var org: Bool?
    /// Open issues in the milestone.
    public var openCount: Int
    /// Closed issues in the milestone.
    public var closedCount: Int

    public init(
        title: String, description: String? = nil, due: String? = nil, state: String, org: Bool? = nil,
        openCount: Int = 0, closedCount: Int = 0
    ) {
        self.title = title
        self.description = description
        self.due = due
        self.state = state
        self.org = org
        self.openCount = openCount
        self.closedCount = closedCount
    }

    private enum CodingKeys: String, CodingKey {
        case title
        case description
        case due
        case state
        case org
        case openCount = "open"
        case closedCount = "closed"
    }
}
