/// The status of a build: `pending`, `running`, `success`, `failure` or `cancelled`.
///
/// `pending` means queued and not yet claimed; an abandoned build becomes `failure`. Only `pending` and
/// `running` builds can be cancelled. Open-ended so a newer status is kept.
public struct BuildStatus: OpenEnumeration {
    /// Queued, not yet claimed by a runner.
    public static let pending = BuildStatus(rawValue: "pending")
    public static let running = BuildStatus(rawValue: "running")
    public static let success = BuildStatus(rawValue: "success")
    public static let failure = BuildStatus(rawValue: "failure")
    public static let cancelled = BuildStatus(rawValue: "cancelled")

    public static var knownValues: [BuildStatus] { [.pending, .running, .success, .failure, .cancelled] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
