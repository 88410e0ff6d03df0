/// The kind of a query-language row: `issue` or `mr`.
///
/// Open-ended so a kind a newer server adds is kept.
public struct QueryItemKind: OpenEnumeration {
    public static let issue = QueryItemKind(rawValue: "issue")
    public static let mergeRequest = QueryItemKind(rawValue: "mr")

    public static var knownValues: [QueryItemKind] { [.issue, .mergeRequest] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
