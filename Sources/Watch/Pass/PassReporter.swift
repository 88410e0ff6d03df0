import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit

/// Says how each pass went, everywhere it is watched: its line on stdout, the status page and
/// `/metrics` through the telemetry, and systemd's `STATUS=` (with `READY=1` after the first full
/// pass); a pass that failed on stderr too.
public struct PassReporter: Sendable {
    /// Whether the line is JSON (`--format json`).
    public let json: Bool
    public let console: any Console
    public let telemetry: WatchTelemetry
    /// systemd, when it started the watcher as `Type=notify`.
    public let notifier: (any ServiceNotifier)?

    /// A reporter printing lines as JSON (`json`) or text on `console`.
    public init(json: Bool, console: any Console, telemetry: WatchTelemetry, notifier: (any ServiceNotifier)?) {
        self.json = json
        self.console = console
        self.telemetry = telemetry
        self.notifier = notifier
    }

    /// Says that `pass` ended well; it ran from `started` to `ended` on the watcher's clock.
    public func passEnded(_ pass: PassSummary, started: Duration, ended: Duration) {
        let line = PassLine(pass, at: GitbayTimestamp.format(Date(), precision: .seconds))
        console.write((json ? line.json : line.text) + "\n", to: .output)
        let becameReady = telemetry.passSucceeded(
            WatchStatus.PassRecord(
                kind: pass.kind.rawValue, started: telemetry.date(at: started), ended: telemetry.date(at: ended),
                requests: pass.requests, actions: pass.actions, applied: pass.applied, failed: pass.failed),
            outcomes: pass.outcomes)
        notifier?.notify((becameReady ? ["READY=1"] : []) + ["STATUS=\(line.text)"])
    }

    /// Says that a pass failed for `cause` and the watcher pauses for `pause`: `summary` to systemd
    /// and on the page, `detail` on stderr, each after `lead`.
    public func passFailed(cause: WatchStatus.WaitCause, pause: Duration, lead: String, summary: String, detail: String)
    {
        telemetry.passFailed(summary, cause: cause, pause: pause.seconds)
        let seconds = Int(pause.seconds.rounded())
        notifier?.notify(["STATUS=\(lead), trying again in \(seconds) s: \(summary)"])
        console.write("note: \(lead), trying again in \(seconds) s: \(detail)\n", to: .error)
    }
}
