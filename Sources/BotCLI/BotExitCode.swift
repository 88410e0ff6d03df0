import Foundation

/// The bot's exit codes, documented in README.md and stable for scripts and CI.
public enum BotExitCode: Int32, Sendable, CaseIterable {
    /// Done, or nothing to do.
    case ok = 0
    /// A failure: the forge refused, the network broke mid-exchange, an action failed.
    case failure = 1
    /// Actions are pending (only with `--detailed-exitcode`).
    case pending = 2
    /// Incomplete: a guard or limit held actions back, or some actions failed; the output says which.
    case incomplete = 3
    /// The command line is wrong (`EX_USAGE`).
    case usage = 64
    /// The gitbay server cannot be reached (`EX_UNAVAILABLE`): the connection is refused, its name
    /// does not resolve, TLS fails, or it redirects to another host. A mistyped URL or a server
    /// that is down, which waiting for the next run does not mend, so service managers must see
    /// it as a failure.
    case unavailable = 69
    /// A file the bot writes could not be written (a full disk, a read-only folder), or its state
    /// database is unusable (`EX_IOERR`).
    case ioError = 74
    /// Rate-limited or busy past the deadline; run again later (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// The rules or the configuration are invalid (`EX_CONFIG`).
    case invalidRules = 78
    /// Stopped by SIGHUP after the write in flight finished (128 + 1).
    case hangup = 129
    /// Interrupted (SIGINT) after the write in flight finished (128 + 2).
    case interrupted = 130
    /// Stopped by SIGTERM after the write in flight finished (128 + 15), as systemd and CI stop jobs.
    case terminated = 143

    /// Whether a signal stopped the run (129, 130, 143).
    var isStopBySignal: Bool {
        self == .hangup || self == .interrupted || self == .terminated
    }

    /// The code of a run stopped cleanly by `signal`: 128 + its number, as shells report it.
    static func stopped(by signal: Int32?) -> BotExitCode {
        switch signal {
        case SIGHUP: return .hangup
        case SIGTERM: return .terminated
        default: return .interrupted
        }
    }
}
