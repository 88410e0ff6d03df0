/// A label as `label list` (and `label set`) returns it: `{"name","color"?,"org"?,"issues"?,"mrs"?}`.
///
/// Named `IssueLabel`, never `Label`, to match the iOS client (SwiftUI owns `Label`). Issues and MRs
/// share one label set, so the counts cover both.
public struct IssueLabel: Codable, Sendable, Hashable {
    public var name: String
    /// The stored colour `#rrggbb`, if any.
    public var color: String?
    /// Whether the label belongs to the organisation rather than the repository.
    public var org: Bool?
    /// Issues carrying the label, in repositories the caller can read.
    public var issues: Int?
    /// Merge requests carrying the label, in repositories the caller can read.
    public var mergeRequests: Int?

    public init(name: String, color: String? = nil, org: Bool? = nil, issues: Int? = nil, mergeRequests: Int? = nil) {
        self.name = name
        self.color = color
        self.org = org
        self.issues = issues
        self.mergeRequests = mergeRequests
    }

    /// The chip colour clients draw, per ``LabelColor/display(name:stored:)``.
    public var displayColor: String { LabelColor.display(name: name, stored: color) }

    private enum CodingKeys: String, CodingKey {
        case name
        case color
        case org
        case issues
        case mergeRequests = "mrs"
    }
}
