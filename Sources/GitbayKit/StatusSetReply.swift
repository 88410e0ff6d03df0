/// The reply of `status set`: `{"sha","context","state"}`, the sha in full.
///
/// The bot reads only the exit code; the reply is decoded so a malformed one is noticed.
public struct StatusSetReply: Codable, Sendable, Hashable {
    public var sha: String
    public var context: String
    public var state: CheckState

    public init(sha: String, context: String, state: CheckState) {
        self.sha = sha
        self.context = context
        self.state = state
    }
}
