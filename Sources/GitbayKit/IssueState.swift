/// The state of an issue: `open` or `closed`.
///
/// Kept open-ended so that a state a newer gitbay adds is carried through instead of failing a listing.
public struct IssueState: OpenEnumeration {
    public static let open = IssueState(rawValue: "open")
    public static let closed = IssueState(rawValue: "closed")

    public static var knownValues: [IssueState] { [.open, .closed] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
