/// One commit of a merge request in `mr show`: `{"sha","subject"}`.
///
/// Lets rules match builds (which belong to commits) against an MR's commits.
public struct CommitRef: Codable, Sendable, Hashable {
    public var sha: String
    /// The first line of the commit message.
    public var subject: String

    public init(sha: String, subject: String) {
        self.sha = sha
        self.subject = subject
    }

    private enum CodingKeys: String, CodingKey {
        case sha
        case subject
    }
}
