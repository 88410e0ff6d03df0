import Foundation
import GitbayClient
import GitbayKit
import RuleEngine

/// The status page at `/`: plain HTML a person reads in any browser, with no script.
///
/// It answers what an operator asks of a bot that seems quiet: is it healthy, which rules are in
/// force and did the last reload take, what did the last passes do and at what cost, what did it
/// change and why, and what is it waiting for. It refreshes itself every interval (at least 5 s).
/// The token is never in the status it renders from.
enum StatusPage {
    /// The page's security policy: no script, no fetch, no frame; inline styles only.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    static func render(_ status: WatchStatus, now: Date) -> String {
        let verdict = WatchHealth.verdict(status, now: now)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="\(Int(max(5, status.interval)))">
            <link rel="icon" href="data:,">
            <title>gitbay-bot watch: \(escape(status.server))</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>gitbay-bot watch</h1>

            """
        html += "<p>Server <code>\(escape(status.server))</code>"
        if let account = status.account { html += " as <code>\(escape(account))</code>" }
        html += status.dryRun ? ", <strong>dry run</strong> (nothing is written)" : ""
        html += ". Version \(escape(BotVersion.current)), started \(time(status.started)).</p>\n"
        html += "<p class=\"\(verdict.healthy ? "ok" : "bad")\" id=\"health\">\(escape(verdict.line))</p>\n"
        html += currentActivity(status, now: now)
        html += rules(status)
        html += passes(status)
        if status.deliveryHealth != nil { html += deliveries(status) }
        html += waitingCommands(status)
        html += tripped(status)
        html += brokenRuleFiles(status)
        html += actions(status)
        html += "</body>\n</html>\n"
        return html
    }

    /// What the watcher is doing now: a pass, a wait, or idling until its next poll; each line HTML.
    private static func currentActivity(_ status: WatchStatus, now: Date) -> String {
        var lines: [String] = []
        if status.stopping { lines.append("Stopping: finishing the write in flight.") }
        if let started = status.passStarted {
            lines.append("A pass is running, for \(WatchHealth.seconds(now.timeIntervalSince(started))).")
        }
        if let wait = status.currentWait, wait.until > now {
            lines.append(
                "Waiting \(WatchHealth.seconds(wait.until.timeIntervalSince(now))) more: \(escape(wait.cause.phrase)).")
        } else if let poll = status.nextPoll, status.passStarted == nil {
            lines.append("Next poll of the feed at \(time(poll)).")
        }
        if let failure = status.lastFailure { lines.append("Last failure: \(escape(failure))") }
        lines.append("Next full pass " + (status.nextFullPass.map { "at \(time($0))." } ?? "when the first one ends."))
        if let position = status.feedPosition { lines.append("Feed position: event \(position).") }
        return "<h2>Now</h2>\n<ul id=\"now\">\n" + lines.map { "<li>\($0)</li>\n" }.joined() + "</ul>\n"
    }

    private static func rules(_ status: WatchStatus) -> String {
        var html = "<h2>Rules</h2>\n<p id=\"reload\">"
        if let reload = status.lastReload {
            html +=
                reload.failure.map { "The reload at \(time(reload.at)) failed; the rules below stay: \(escape($0))" }
                ?? "Reloaded at \(time(reload.at))."
        } else {
            html += "Loaded at the start; not reloaded since (SIGHUP reloads)."
        }
        if status.reloadFailures > 0 { html += " Reloads failed so far: \(status.reloadFailures)." }
        html += "</p>\n"
        return html
            + table(
                id: "rules", ["Rule", "On"], status.rules.map { [code($0.name), escape($0.kind)] },
                empty: "No rules.")
    }

    private static func passes(_ status: WatchStatus) -> String {
        let rows = status.recentPasses.reversed().map { pass in
            [
                time(pass.ended), escape(pass.kind),
                escape(String(format: "%.2f s", pass.ended.timeIntervalSince(pass.started))), "\(pass.requests)",
                "\(pass.actions)", "\(pass.applied)", "\(pass.failed)",
            ]
        }
        return "<h2>Last passes</h2>\n"
            + table(
                id: "passes", ["Ended", "Kind", "Took", "Requests", "Actions", "Applied", "Failed"], rows,
                empty: "No pass has ended yet.")
    }

    /// The webhook deliveries: how they stand, the last one, and the counts by event and outcome.
    private static func deliveries(_ status: WatchStatus) -> String {
        var line: String
        switch status.deliveryHealth {
        case _ where status.refusals.failing:
            line =
                "Deliveries are refused: \(escape(WatchHealth.refusals(status.refusals))); "
                + "polling every \(WatchHealth.seconds(status.pollEvery))."
        case DeliveryWatch.Health.working.rawValue:
            line =
                "Deliveries arrive; the feed is polled every \(WatchHealth.seconds(status.pollEvery)) as a safety net."
        case DeliveryWatch.Health.failing.rawValue:
            line =
                "Deliveries are failing: \(status.deliveriesMissed) events the feed showed never came as deliveries; "
                + "polling every \(WatchHealth.seconds(status.pollEvery))."
        default:
            line =
                "No delivery has proved the hooks yet; the feed is polled every \(WatchHealth.seconds(status.pollEvery))."
        }
        line += status.lastDelivery.map { " Last delivery accepted at \(time($0))." } ?? " No delivery accepted yet."
        if !status.unhooked.isEmpty {
            line +=
                " Heard by polling only (no delivery came from them): "
                + status.unhooked.map(code).joined(separator: ", ") + "."
        }
        if let check = status.hookCheck {
            line += " The start's check of the hooks: \(escape(check.summary))"
            let problems = check.problems.map(escape).joined(separator: "; ")
            line += check.problems.isEmpty ? "; no problem found." : ": " + problems
        } else {
            line += " The start's check of the hooks has not ended yet."
        }
        let rows = status.deliveries.sorted { $0.key < $1.key }.map {
            [code($0.key.event), escape($0.key.outcome), "\($0.value)"]
        }
        return "<h2>Webhook deliveries</h2>\n<p id=\"delivery-health\">\(line)</p>\n"
            + table(id: "deliveries", ["Event", "Outcome", "Count"], rows, empty: "No delivery yet.")
    }

    /// The rules the tripwire holds back whole, which do nothing until someone looks.
    private static func tripped(_ status: WatchStatus) -> String {
        let rows = status.tripped.sorted { $0.key < $1.key }.map { [code($0.key), escape($0.value)] }
        return "<h2>Held by the tripwire</h2>\n"
            + table(id: "tripped", ["Rule", "Why"], rows, empty: "No rule is held by the tripwire.")
    }

    /// The repositories whose own rules file has an error: their rules wait, the operator's go on.
    private static func brokenRuleFiles(_ status: WatchStatus) -> String {
        let rows = status.brokenRuleFiles.sorted { $0.key < $1.key }.map { [code($0.key), escape($0.value)] }
        return "<h2>Repositories' rules files with an error</h2>\n"
            + table(
                id: "rule-files", ["Repository", "First error (its rules wait until it is mended)"], rows,
                empty: "No repository's rules file has an error.")
    }

    /// The bot's own queue: commands it will carry out once what they wait for changes, each
    /// judged again on every pass that reads its item.
    private static func waitingCommands(_ status: WatchStatus) -> String {
        let rows = status.waitingCommands.map { waiting in
            [code(waiting.item.reference), escape(waiting.note)]
        }
        return "<h2>Waiting commands</h2>\n"
            + table(id: "waiting", ["Item", "What waits, and for what"], rows, empty: "No command waits.")
    }

    private static func actions(_ status: WatchStatus) -> String {
        let rows = status.recentActions.map { action in
            [
                time(action.at), code(action.item), code(action.command), escape(action.outcome),
                escape(action.rule)
                    + (action.reasons.isEmpty
                        ? ""
                        : "<ul>" + action.reasons.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"),
            ]
        }
        let heading = status.dryRun ? "Last planned actions (dry run)" : "Last actions"
        return "<h2>\(heading)</h2>\n"
            + table(
                id: "actions", ["At", "Item", "Command", "Outcome", "Rule and reasons"], rows,
                empty: status.dryRun ? "No action planned yet." : "No action on record yet.")
    }

    private static func table(id: String, _ headings: [String], _ rows: [[String]], empty: String) -> String {
        guard !rows.isEmpty else { return "<p id=\"\(id)\">\(escape(empty))</p>\n" }
        var html = "<table id=\"\(id)\">\n<thead><tr>"
        html += headings.map { "<th scope=\"col\">\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows { html += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n" }
        return html + "</tbody>\n</table>\n"
    }

    private static func code(_ text: String) -> String { "<code>\(escape(text))</code>" }

    private static func time(_ date: Date) -> String {
        "<time datetime=\"\(GitbayTimestamp.format(date, precision: .seconds))\">"
            + escape(GitbayTimestamp.format(date, precision: .seconds)) + "</time>"
    }

    /// Text as HTML: the five characters that could end an element or an attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    private static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:78em;padding:0 1em;color:#1b1f24}\
        h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}\
        table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.3em .6em;\
        border-bottom:1px solid #d0d7de}th{background:#f3f5f7}td ul{margin:.2em 0;padding-left:1.2em}\
        code{font:13px ui-monospace,monospace;overflow-wrap:anywhere}\
        .ok{color:#116329;font-weight:600}.bad{color:#a40e26;font-weight:600}
        """
}
