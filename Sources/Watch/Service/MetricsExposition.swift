import Foundation
import GitbayClient

/// `/metrics`: a watcher's status in Prometheus's text exposition format, version 0.0.4.
///
/// Every name begins `gitbay_bot_`. Counters count from the watcher's start, as Prometheus's
/// `rate()` expects of a process that restarts. A gauge with nothing to say yet (no pass has ended,
/// no feed position) has no sample, rather than a zero that reads as 1970.
enum MetricsExposition {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of `status` at `now`, with `residentBytes` of memory.
    static func render(_ status: WatchStatus, now: Date, residentBytes: Int?) -> String {
        var out = Writer()
        out.family(
            "build_info", .gauge, "The bot's version; always 1.", [(["version": BotVersion.current], 1)])
        out.family(
            "start_time_seconds", .gauge, "When this watcher started, in seconds since the epoch.",
            [([:], status.started.timeIntervalSince1970)])
        out.family(
            "passes_total", .counter,
            "Passes that ended well, by kind: full, events (judged what the feed named), idle.",
            status.passes.sorted { $0.key < $1.key }.map { (["kind": $0.key], Double($0.value)) })
        out.family(
            "requests_total", .counter, "Requests sent to the gitbay server, retries included, by type.",
            [(["type": "read"], Double(status.reads)), (["type": "write"], Double(status.writes))])
        out.family(
            "actions_total", .counter,
            "Actions by rule and outcome: applied, already-done, skipped, failed, held, waiting, not-run; planned in a dry run.",
            status.actions.sorted { $0.key < $1.key }.map {
                (["rule": $0.key.rule, "outcome": $0.key.outcome], Double($0.value))
            })
        out.family(
            "webhook_deliveries_total", .counter,
            "Webhook deliveries by event and outcome: accepted, duplicate, out-of-scope, bad-signature, too-large, not-a-delivery, inbox-full.",
            status.deliveries.sorted { $0.key < $1.key }.map {
                (["event": $0.key.event, "outcome": $0.key.outcome], Double($0.value))
            })
        out.family(
            "webhook_last_delivery_timestamp_seconds", .gauge, "When the last webhook delivery was accepted.",
            status.lastDelivery.map { [([:], $0.timeIntervalSince1970)] } ?? [])
        out.family(
            "webhook_deliveries_failing", .gauge,
            "1 while gitbay's webhook deliveries are refused or events the feed showed did not come as deliveries, "
                + "else 0; absent without webhooks.",
            status.deliveryHealth == nil ? [] : [([:], status.deliveriesFailing ? 1 : 0)])
        out.family(
            "webhook_deliveries_refused_total", .counter,
            "Deliveries refused for a reason that says the bot and its hook disagree: a wrong or missing signature "
                + "on a request with gitbay's delivery headers, a signed delivery the bot cannot read.",
            status.deliveryHealth == nil ? [] : [([:], Double(status.refusals.total))])
        out.family(
            "webhook_events_missed_total", .counter, "Events the feed showed that never came as webhook deliveries.",
            status.deliveryHealth == nil ? [] : [([:], Double(status.deliveriesMissed))])
        out.family(
            "poll_interval_seconds", .gauge,
            "How often the feed is polled now (relaxed while webhook deliveries work).",
            [([:], status.pollEvery)])
        out.family(
            "writes_waiting", .gauge,
            "Commands the passes judged that wait to be sent (writes go out at gitbay's pace, behind the passes).",
            [([:], Double(status.writesWaiting))])
        out.family(
            "last_pass_timestamp_seconds", .gauge, "When the last pass ended, well or not.",
            status.lastPassEnded.map { [([:], $0.timeIntervalSince1970)] } ?? [])
        out.family(
            "last_successful_pass_timestamp_seconds", .gauge, "When the last pass that ended well ended.",
            status.lastSuccessfulPassEnded.map { [([:], $0.timeIntervalSince1970)] } ?? [])
        out.family(
            "waits_total", .counter,
            "Waits begun, by cause: rate_limit, busy (503 or 5xx), transport (network, cut answers), pacing (own budget).",
            status.waits.sorted { $0.key < $1.key }.map { (["cause": $0.key.rawValue], Double($0.value)) })
        out.family(
            "feed_position", .gauge, "The id of the newest activity-feed event handled.",
            status.feedPosition.map { [([:], Double($0))] } ?? [])
        out.family("rules_loaded", .gauge, "Rules in force.", [([:], Double(status.rules.count))])
        out.family(
            "rules_tripped", .gauge, "Rules the tripwire holds back whole, as the last full pass judged them.",
            [([:], Double(status.tripped.count))])
        out.family(
            "repository_rules_broken", .gauge,
            "Repositories whose own rules file has an error, one sample each, as the last full pass read them; "
                + "their rules wait until it is mended.",
            status.brokenRuleFiles.keys.sorted().map { (["repository": $0], 1) })
        out.family(
            "rules_reload_failures_total", .counter, "Reloads (SIGHUP) whose rules were invalid; the old ones stayed.",
            [([:], Double(status.reloadFailures))])
        out.family(
            "healthy", .gauge, "1 while /healthz answers 200, else 0.",
            [([:], WatchHealth.verdict(status, now: now).healthy ? 1 : 0)])
        out.family(
            "resident_memory_bytes", .gauge, "The process's resident memory.",
            residentBytes.map { [([:], Double($0))] } ?? [])
        return out.text
    }

    private enum Kind: String {
        case counter, gauge
    }

    /// The text, one family at a time.
    private struct Writer {
        var text = ""

        mutating func family(_ name: String, _ kind: Kind, _ help: String, _ samples: [([String: String], Double)]) {
            let full = "gitbay_bot_\(name)"
            text += "# HELP \(full) \(escapeHelp(help))\n# TYPE \(full) \(kind.rawValue)\n"
            for (labels, value) in samples {
                text += full
                if !labels.isEmpty {
                    let pairs = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(escapeLabel($0.value))\"" }
                    text += "{\(pairs.joined(separator: ","))}"
                }
                text += " \(format(value))\n"
            }
        }

        /// HELP text escapes backslash and line feed.
        private func escapeHelp(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        }

        /// Label values escape backslash, double quote and line feed.
        private func escapeLabel(_ text: String) -> String {
            escapeHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
        }

        /// Whole numbers without a fraction; others with millisecond precision.
        private func format(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(format: "%.3f", value)
        }
    }
}
