/// The reply of writes that only confirm their target: `{"number"}` (`issue comment`, `mr comment`).
///
/// The journal records the number to show which item the write landed on.
public struct NumberReply: Codable, Sendable, Hashable {
    public var number: Int

    public init(number: Int) {
        self.number = number
    }

    private enum CodingKeys: String, CodingKey {
        case number
    }
}
