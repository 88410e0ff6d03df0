import Foundation

/// One CI build as `build list` and `build show` return it; times are in whole seconds.
///
/// The superseded-build rule compares `ref`, `job`, `number` and `sha` across rows; gitbay sends no
/// MR number, so a build is tied to an MR by `sha == headSHA` plus the ref (the source branch, or
/// `refs/merge-requests/<n>/head` for a fork).
public struct Build: Codable, Sendable, Hashable {
    /// The per-repository build number, used by `build show`, `build log` and `build cancel`.
    public var number: Int
    /// The job name from `.gitbay/ci.yml`.
    public var job: String
    public var status: BuildStatus
    /// The commit the build runs on.
    public var sha: String
    /// A branch name, `refs/merge-requests/<n>/head` for a fork MR, a tag, or the default branch.
    public var ref: String
    public var createdAt: Date
    /// Not sent by the versions read; kept for servers and snapshot files that have it.
    public var startedAt: Date?
    public var finishedAt: Date?
    /// The first line of the commit message.
    public var subject: String?
    /// The 1-based step that failed.
    public var failedStep: Int?
    /// Why it failed, such as `exit 1`.
    public var failedReason: String?
    /// Run time in seconds, once started and finished.
    public var durationSeconds: Int?
    /// Step names; `build show` only.
    public var steps: [String]

    public init(
        number: Int, job: String, status: BuildStatus, sha: String, ref: String, createdAt: Date,
        startedAt: Date? = nil, finishedAt: Date? = nil, subject: String? = nil, failedStep: Int? = nil,
        failedReason: String? = nil, durationSeconds: Int? = nil, steps: [String] = []
    ) {
        self.number = number
        self.job = job
        self.status = status
        self.sha = sha
        self.ref = ref
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.subject = subject
        self.failedStep = failedStep
        self.failedReason = failedReason
        self.durationSeconds = durationSeconds
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case job
        case status
        case sha
        case ref
        case createdAt = "created_at"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case subject
        case failedStep = "failed_step"
        case failedReason = "failed_reason"
        case durationSeconds = "duration_s"
        case steps
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        job = try container.decode(String.self, forKey: .job)
        status = try container.decode(BuildStatus.self, forKey: .status)
        sha = try container.decode(String.self, forKey: .sha)
        ref = try container.decode(String.self, forKey: .ref)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        startedAt = try container.decodeTimestampIfPresent(forKey: .startedAt)
        finishedAt = try container.decodeTimestampIfPresent(forKey: .finishedAt)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        failedStep = try container.decodeIfPresent(Int.self, forKey: .failedStep)
        failedReason = try container.decodeIfPresent(String.self, forKey: .failedReason)
        durationSeconds = try container.decodeIfPresent(Int.self, forKey: .durationSeconds)
        steps = try container.decodeList(String.self, forKey: .steps)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(job, forKey: .job)
        try container.encode(status, forKey: .status)
        try container.encode(sha, forKey: .sha)
        try container.encode(ref, forKey: .ref)
        try container.encodeTimestamp(createdAt, precision: .seconds, forKey: .createdAt)
        try container.encodeTimestampIfPresent(startedAt, precision: .seconds, forKey: .startedAt)
        try container.encodeTimestampIfPresent(finishedAt, precision: .seconds, forKey: .finishedAt)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(failedStep, forKey: .failedStep)
        try container.encodeIfPresent(failedReason, forKey: .failedReason)
        try container.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try container.encodeListIfNotEmpty(steps, forKey: .steps)
    }
}
