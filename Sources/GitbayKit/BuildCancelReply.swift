/// The reply of `build cancel`: `{"number","job","status":"cancelled","was":"pending"|"running"}`.
///
/// `was` tells the journal whether a running build was stopped or a queued one withdrawn.
public struct BuildCancelReply: Codable, Sendable, Hashable {
    public var number: Int
    public var job: String
    /// The status afterwards: `cancelled`.
    public var status: BuildStatus
    /// The status before the cancel.
    public var was: BuildStatus

    public init(number: Int, job: String, status: BuildStatus = .cancelled, was: BuildStatus) {
        self.number = number
        self.job = job
        self.status = status
        self.was = was
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case job
        case status
        case was
    }
}
