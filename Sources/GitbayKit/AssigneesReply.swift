/// The reply of `issue assign`: `{"number","assignees"}` with the assignees afterwards.
///
/// Like labels, an emptied list arrives as `null` and decodes as empty.
public struct AssigneesReply: Codable, Sendable, Hashable {
    public var number: Int
    public var assignees: [String]

    public init(number: Int, assignees: [String] = []) {
        self.number = number
        self.assignees = assignees
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case assignees
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        assignees = try container.decodeList(String.self, forKey: .assignees)
    }
}
