/// The reply of `issue milestone` and `mr milestone`: `{"milestone"}`, `""` once cleared.
///
/// The raw value round-trips; ``title`` reads the cleared case as `nil`.
public struct MilestoneReply: Codable, Sendable, Hashable {
    /// The milestone title as sent, `""` when the milestone was cleared.
    public var milestone: String

    public init(milestone: String) {
        self.milestone = milestone
    }

    /// The milestone now set, or `nil` when it was cleared.
    public var title: String? { milestone.isEmpty ? nil : milestone }

    private enum CodingKeys: String, CodingKey {
        case milestone
    }
}
