/// The reply of `issue label` and `mr label`: `{"number","labels"}` with the item's labels afterwards.
///
/// After the last label is removed gitbay sends `"labels":null`; that, or a missing key, decodes as
/// an empty list so the applier can compare the result with what it intended.
public struct LabelsReply: Codable, Sendable, Hashable {
    public var number: Int
    /// The labels now on the issue or MR.
    public var labels: [String]

    public init(number: Int, labels: [String] = []) {
        self.number = number
        self.labels = labels
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case labels
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        labels = try container.decodeList(String.self, forKey: .labels)
    }
}
