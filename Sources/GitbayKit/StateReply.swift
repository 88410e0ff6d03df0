/// The reply of `issue close`, `issue reopen` and `mr close`: `{"number","state"}`.
///
/// The state is kept as the server wrote it (`open` or `closed`) since it serves issues and MRs alike.
public struct StateReply: Codable, Sendable, Hashable {
    public var number: Int
    public var state: String

    public init(number: Int, state: String) {
        self.number = number
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case state
    }
}
