import GitbayClient
import RuleEngine

/// What one run did, gathered for the Markdown report: the plan, what applying it did, and the
/// requests it cost.
///
/// A value, so the report is rendered by a pure function a test pins, and the same text goes to
/// `--report FILE` and to the `--summary-issue`.
struct RunReport: Sendable, Hashable {
    var plan: Plan
    /// What applying did; `nil` for a dry run, which applies nothing.
    var applied: ApplyReport?
    /// The requests the run's client spent; `nil` offline (a snapshot costs none).
    var metrics: ClientMetrics?
    /// The exit code the run ends with.
    var exitCode: BotExitCode
}
