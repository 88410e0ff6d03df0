import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Watch

/// Says how each pass went, everywhere it is watched: its line on stdout, the status page and
/// `/metrics` through the telemetry, and systemd's `STATUS=` (with `READY=1` after the first full
/// pass); a pass that failed on stderr too.
struct PassReporter {
    /// Whether the line is JSON (`--format json`).
    let json: Bool
    let console: any Console
    let telemetry: WatchTelemetry
    /// systemd, when it started the watcher as `Type=notify`.
    let notifier: (any ServiceNotifier)?

    /// Says that `pass` ended well; it ran from `started` to `ended` on the watcher's clock.
    func passEnded(_ pass: WatchPass.Summary, started: Duration, ended: Duration) {
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
    func passFailed(cause: WatchStatus.WaitCause, pause: Duration, lead: String, summary: String, detail: String) {
        telemetry.passFailed(summary, cause: cause, pause: pause.seconds)
        let seconds = Int(pause.seconds.rounded())
        notifier?.notify(["STATUS=\(lead), trying again in \(seconds) s: \(summary)"])
        console.write("note: \(lead), trying again in \(seconds) s: \(detail)\n", to: .error)
    }

    /// Puts the state store's newest actions on the status page; a store that cannot say leaves
    /// the page as it was (the next pass's journal write will report the trouble).
    static func refreshRecentActions(_ store: any StateStore, _ telemetry: WatchTelemetry) async {
        guard let records = try? await store.history(HistoryQuery(limit: WatchStatus.recentLimit)) else { return }
        telemetry.recentActions(
            records.map { record in
                WatchStatus.ActionRecord(
                    at: record.at, rule: record.rule, item: record.item, command: ShellQuote.line(record.argv),
                    outcome: HistoryEntry(record, command: nil, account: "").outcome.rawValue,
                    reasons: (record.reasons ?? []).map(\.reasonDescription))
            })
    }
}
