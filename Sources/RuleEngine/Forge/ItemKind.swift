/// The kinds of items rules act on, named as a rule's `on:` names them.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Codable {
    case issues
    case mergeRequests = "merge_requests"
    case builds
}
