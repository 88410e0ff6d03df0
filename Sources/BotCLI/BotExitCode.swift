/// The bot's exit codes, documented in README.md and stable for scripts and CI.
public enum BotExitCode: Int32, Sendable, CaseIterable {
    /// Done, or nothing to do.
    case ok = 0
    /// A failure: the forge refused, the network broke, an action failed.
    case failure = 1
    /// Actions are pending (only with `--detailed-exitcode`).
    case pending = 2
    /// Incomplete: a guard or limit held actions back, or some actions failed; the output says which.
    case incomplete = 3
    /// The command line is wrong (`EX_USAGE`).
    case usage = 64
    /// Rate-limited or busy past the deadline; run again later (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// The rules or the configuration are invalid (`EX_CONFIG`).
    case invalidRules = 78
    /// Interrupted (SIGINT) after the write in flight finished.
    case interrupted = 130
}
