/// A pointer to another merge request of the same repository: `{"number","title"}`.
///
/// Used for `stacked_on` (the MR this one targets) and `stacked` (MRs targeting this one); the
/// relation exists only while both MRs are open, which is how a landed stack is detected.
public struct MergeRequestRef: Codable, Sendable, Hashable {
    public var number: Int
    public var title: String

    public init(number: Int, title: String) {
        self.number = number
        self.title = title
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case title
    }
}
