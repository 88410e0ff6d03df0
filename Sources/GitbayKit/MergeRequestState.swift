/// The state of a merge request: `open`, `merged`, `closed` or `source_gone`.
///
/// Draft is a separate flag, not a state. `source_gone` (source branch or fork deleted) returns to `open`
/// when the branch comes back. Open-ended so a newer state is kept.
public struct MergeRequestState: OpenEnumeration {
    public static let open = MergeRequestState(rawValue: "open")
    public static let merged = MergeRequestState(rawValue: "merged")
    public static let closed = MergeRequestState(rawValue: "closed")
    /// The source branch or fork was deleted.
    public static let sourceGone = MergeRequestState(rawValue: "source_gone")

    public static var knownValues: [MergeRequestState] { [.open, .merged, .closed, .sourceGone] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
