/// A review's verdict: `approve`, `request_changes` or `comment`.
///
/// Open-ended so a verdict a newer server adds is kept.
public struct ReviewVerdict: OpenEnumeration {
    public static let approve = ReviewVerdict(rawValue: "approve")
    public static let requestChanges = ReviewVerdict(rawValue: "request_changes")
    public static let comment = ReviewVerdict(rawValue: "comment")

    public static var knownValues: [ReviewVerdict] { [.approve, .requestChanges, .comment] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
