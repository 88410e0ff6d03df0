import ArgumentParsing
import RuleEngine
import Watch

extension WatchPass {
    /// Says on stderr, once each, the rules a full pass's tripwire began to hold back and those
    /// it let go; the page and `/metrics` show them meanwhile (``WatchTelemetry/rulesTripped(_:)``).
    ///
    /// A watcher runs unattended: a rule held whole does nothing pass after pass, and a counter of
    /// held actions was the only trace of it.
    func sayTripwires(_ rules: [Plan.RuleSummary]) {
        let (began, ended) = telemetry.rulesTripped(rules)
        for note in began {
            console.write(
                "warning: \(note); watch holds it back every pass until it acts on fewer, or is restarted with "
                    + "--force-rule\n", to: .error)
        }
        for rule in ended {
            console.write("note: the tripwire no longer holds rule '\(rule)' back\n", to: .error)
        }
    }
}
