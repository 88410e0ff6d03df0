/// The kinds of items rules act on, named as a rule's `on:` names them.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Codable {
    case issues
    case mergeRequests = "merge_requests"
    case builds

    /// The singular noun, for messages ("issue", "merge request", "build").
    public var noun: String {
        switch self {
        case .issues: return "issue"
        case .mergeRequests: return "merge request"
        case .builds: return "build"
        }
    }
}
