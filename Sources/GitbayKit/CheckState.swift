/// The state of a commit status check: `pending`, `success`, `failure`, `error` or `skipped`.
///
/// CI writes `skipped` for path-filtered jobs and `error` for a cancelled build's context. Open-ended so a
/// newer state is kept.
public struct CheckState: OpenEnumeration {
    public static let pending = CheckState(rawValue: "pending")
    public static let success = CheckState(rawValue: "success")
    public static let failure = CheckState(rawValue: "failure")
    public static let error = CheckState(rawValue: "error")
    /// Written by CI for path-filtered jobs.
    public static let skipped = CheckState(rawValue: "skipped")

    public static var knownValues: [CheckState] { [.pending, .success, .failure, .error, .skipped] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
