import Foundation

/// Whether a watcher is healthy and whether it moves, judged from a copy of its status.
///
/// Two questions with two audiences. `/healthz` asks whether the bot does its job: a successful
/// pass ended recently enough. systemd's watchdog asks whether the process is stuck: a watcher
/// whose server is down still moves (it fails, waits and tries again), and restarting it would not
/// help; one whose request never returns does not.
enum WatchHealth {
    /// The answer of `/healthz`: healthy or not, and why, in one line.
    struct Verdict: Sendable, Hashable {
        var healthy: Bool
        var line: String
    }

    /// How long a watcher may go without a successful pass: three polls (at the relaxed pace
    /// while webhook deliveries work), or twice the longest successful pass so far when that is
    /// longer (a large forge's full pass).
    static func limit(_ status: WatchStatus) -> TimeInterval {
        max(3 * max(status.interval, status.pollEvery), 2 * status.longestPass)
    }

    /// `/healthz`: healthy while the last successful pass (or the start, before the first one)
    /// ended within ``limit(_:)`` and webhook deliveries, when the watcher takes them, are neither
    /// refused (``RefusedDeliveries``) nor failing.
    static func verdict(_ status: WatchStatus, now: Date) -> Verdict {
        let since = status.lastSuccessfulPassEnded ?? status.started
        let age = max(0, now.timeIntervalSince(since))
        if status.refusals.failing {
            return Verdict(healthy: false, line: "webhook deliveries are refused: " + refusals(status.refusals))
        }
        if status.deliveryHealth == DeliveryWatch.Health.failing.rawValue {
            return Verdict(
                healthy: false,
                line:
                    "webhook deliveries are failing: \(status.deliveriesMissed) events the feed showed never came as "
                    + "deliveries; polling every \(seconds(status.pollEvery)) until one comes again")
        }
        if age <= limit(status) {
            let line =
                status.lastSuccessfulPassEnded == nil
                ? "ok: starting, the first full pass has run \(seconds(age))"
                : "ok: the last successful pass ended \(seconds(age)) ago"
            return Verdict(healthy: true, line: line)
        }
        let why: String
        if let failure = status.lastFailure {
            why = failure
        } else if let started = status.passStarted {
            why = "a pass has been running for \(seconds(now.timeIntervalSince(started)))"
        } else {
            why = "no pass has run"
        }
        let lead =
            status.lastSuccessfulPassEnded == nil
            ? "no successful pass in the \(seconds(age)) since the start"
            : "no successful pass for \(seconds(age))"
        return Verdict(healthy: false, line: "\(lead): \(why)")
    }

    /// Whether the watcher moves: it is in a wait or an idle spell that has not overrun, or it
    /// showed progress (a request sent, a pass begun or ended) within ``limit(_:)``.
    ///
    /// A request that never returns stops all three, so systemd's watchdog then restarts it.
    static func isProgressing(_ status: WatchStatus, now: Date) -> Bool {
        let grace = status.interval
        if let wait = status.currentWait, now <= wait.until + grace { return true }
        if let poll = status.nextPoll, status.passStarted == nil, now <= poll + grace { return true }
        return now.timeIntervalSince(status.lastProgress) <= limit(status)
    }

    /// A spell of refused deliveries as `/healthz` and the page say it: how many, and why the last.
    static func refusals(_ refusals: RefusedDeliveries) -> String {
        "\(refusals.inSpell) from gitbay in a row; the last: \(refusals.lastReason ?? "-")"
    }

    /// Whole seconds, as the page and the probes say them.
    static func seconds(_ interval: TimeInterval) -> String {
        "\(Int(interval.rounded())) s"
    }
}
