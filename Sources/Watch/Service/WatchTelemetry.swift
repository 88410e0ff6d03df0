import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Synchronization
import Timekeeping

/// The one place a watcher records what it does, for everything that reports on it from outside
/// its loop: the HTTP endpoints, systemd's watchdog and status.
///
/// Each call takes a lock for a few assignments only, so the watcher's passes, its client's tasks
/// and the server's threads share it without waiting on one another.
public final class WatchTelemetry: Sendable {
    private let state: Mutex<WatchStatus>
    private let watchClock: any MonotonicClock
    /// The wall time at the clock's zero, which every time the status holds is counted from.
    private let origin: Date

    /// Telemetry whose times are `origin` plus `clock`'s readings: monotonic, so that an NTP step
    /// or a resumed VM can neither make a healthy watcher look stuck nor hide a stuck one.
    public init(
        server: String, interval: TimeInterval, fullEvery: TimeInterval, dryRun: Bool,
        clock: any MonotonicClock, origin: Date = Date()
    ) {
        watchClock = clock
        self.origin = origin
        state = Mutex(
            WatchStatus(
                server: server, started: origin + clock.now.seconds, interval: interval, fullEvery: fullEvery,
                dryRun: dryRun))
    }

    /// A copy of the status now.
    public var status: WatchStatus {
        state.withLock { $0 }
    }

    /// The time by the telemetry's clock, for judging a copy of the status.
    public var now: Date { date(at: watchClock.now) }

    /// The time the status holds for `instant`, a reading of the clock.
    public func date(at instant: Duration) -> Date {
        origin + instant.seconds
    }

    /// Takes what the client reports: each request sent and each wait it begins.
    public func record(_ event: ClientEvent) {
        let now = self.now
        state.withLock { status in
            status.lastProgress = now
            switch event {
            case .sending(_, let effect, _):
                if effect == .write { status.writes += 1 } else { status.reads += 1 }
                status.currentWait = nil
            case .retrying(_, _, let failure):
                let cause = WatchStatus.WaitCause(failure) ?? .transport
                status.waits[cause, default: 0] += 1
                status.retryCause = cause
                status.lastFailure = Self.summary(of: failure)
            case .waiting(let duration, let reason):
                let cause = Self.cause(of: reason, after: status.retryCause)
                if cause == .pacing { status.waits[.pacing, default: 0] += 1 }
                status.currentWait = WatchStatus.Wait(cause: cause, until: now + duration.seconds)
            }
        }
    }

    /// A pass begins.
    public func passBegins() {
        let now = self.now
        state.withLock { status in
            status.passStarted = now
            status.lastProgress = now
            status.nextPoll = nil
            status.currentWait = nil
        }
    }

    /// A pass ended well: counted by kind, its actions by rule and outcome; answers whether it made
    /// the watcher ready (its first full pass), which systemd is told once.
    @discardableResult
    public func passSucceeded(_ record: WatchStatus.PassRecord, outcomes: [WatchStatus.ActionKey]) -> Bool {
        let now = self.now
        return state.withLock { status in
            let wasReady = status.ready
            status.passes[record.kind, default: 0] += 1
            for key in outcomes { status.actions[key, default: 0] += 1 }
            status.lastPassEnded = now
            status.lastSuccessfulPassEnded = now
            status.longestPass = max(status.longestPass, record.ended.timeIntervalSince(record.started))
            status.passStarted = nil
            status.lastProgress = now
            status.lastFailure = nil
            status.currentWait = nil
            status.recentPasses.append(record)
            if status.recentPasses.count > WatchStatus.recentLimit { status.recentPasses.removeFirst() }
            if record.kind == "full" {
                status.ready = true
                status.nextFullPass = now + status.fullEvery
            }
            return status.ready && !wasReady
        }
    }

    /// A pass judged the items `judged` says it did and planned `entries` for them: the
    /// commands waiting on those items replace what waited there before; elsewhere it stands.
    public func commandsWait(in entries: [PlanEntry], judged: (PlannedItem) -> Bool) {
        let waiting = entries.compactMap { entry in
            entry.waitingNote.map { WatchStatus.WaitingCommand(item: entry.item, note: $0) }
        }
        state.withLock { status in
            status.waitingCommands.removeAll { judged($0.item) }
            status.waitingCommands += waiting
        }
    }

    /// A full pass judged every rule in `rules`: those the tripwire holds replace those it held;
    /// answers the notes of the rules it began to hold and the names of those it let go, for the
    /// watcher to say once each.
    ///
    /// Only a full pass decides: an events pass judges a few items, which never trip it.
    public func rulesTripped(_ rules: [Plan.RuleSummary]) -> (began: [String], ended: [String]) {
        let now = rules.reduce(into: [String: String]()) { tripped, rule in tripped[rule.name] = rule.tripwire }
        return state.withLock { status in
            let began = now.keys.filter { status.tripped[$0] == nil }.sorted().compactMap { now[$0] }
            let ended = status.tripped.keys.filter { now[$0] == nil }.sorted()
            status.tripped = now
            return (began, ended)
        }
    }

    /// A full pass read every repository's rules file: `broken` (repository to first error)
    /// replaces what the last one found; answers the repositories that broke and those mended,
    /// for the watcher to say once each.
    ///
    /// With `repositories` (an events pass that read those repositories' files again), only
    /// those are replaced; the others stand.
    public func ruleFilesBroken(
        _ broken: [String: String], in repositories: Set<String>? = nil
    ) -> (began: [String], mended: [String]) {
        state.withLock { status in
            let read = { (repository: String) in repositories?.contains(repository) ?? true }
            let began = broken.keys.filter { status.brokenRuleFiles[$0] == nil }.sorted()
            let mended = status.brokenRuleFiles.keys.filter { read($0) && broken[$0] == nil }.sorted()
            status.brokenRuleFiles = status.brokenRuleFiles.filter { !read($0.key) }.merging(broken) { _, new in new }
            return (began, mended)
        }
    }

    /// A pass failed for a reason waiting can mend; the watcher pauses `pause` seconds.
    public func passFailed(_ failure: String, cause: WatchStatus.WaitCause, pause: TimeInterval) {
        let now = self.now
        state.withLock { status in
            status.lastPassEnded = now
            status.passStarted = nil
            status.lastFailure = failure
            status.lastProgress = now
            status.waits[cause, default: 0] += 1
            status.currentWait = WatchStatus.Wait(cause: cause, until: now + pause)
        }
    }

    /// The watcher sleeps until its next poll, at `instant` by the clock.
    public func idles(until instant: Duration) {
        let now = self.now
        let poll = date(at: instant)
        state.withLock { status in
            status.lastProgress = now
            status.nextPoll = poll
        }
    }

    /// The account the server says the token is.
    public func account(_ name: String) {
        state.withLock { $0.account = name }
    }

    public func feedPosition(_ position: Int?) {
        state.withLock { $0.feedPosition = position }
    }

    /// The rules in force, after the start or a reload that loaded.
    public func rulesLoaded(_ rules: [WatchStatus.LoadedRule], reloaded: Bool) {
        let now = self.now
        state.withLock { status in
            status.rules = rules
            if reloaded { status.lastReload = WatchStatus.Reload(at: now, failure: nil) }
        }
    }

    /// A reload that failed: the old rules stay.
    public func reloadFailed(_ failure: String) {
        let now = self.now
        state.withLock { status in
            status.reloadFailures += 1
            status.lastReload = WatchStatus.Reload(at: now, failure: failure)
        }
    }

    /// The write queue sent one job, which came to `outcomes`, and `waiting` commands are left.
    public func writesSent(_ outcomes: [WatchStatus.ActionKey], waiting: Int) {
        let now = self.now
        state.withLock { status in
            for key in outcomes { status.actions[key, default: 0] += 1 }
            status.writesWaiting = waiting
            status.lastProgress = now
        }
    }

    /// The endpoint answered a webhook delivery of `event` (`-` when it named none): `outcome`,
    /// which was `answer` to the spells of refused deliveries; answers the spell that began or
    /// ended, for the endpoint to say.
    @discardableResult
    func deliveryReceived(
        _ event: String, outcome: String, answer: RefusedDeliveries.Answer = .neither
    ) -> RefusedDeliveries.Turn? {
        let now = self.now
        return state.withLock { status in
            status.deliveries[WatchStatus.DeliveryKey(event: event, outcome: outcome), default: 0] += 1
            if outcome == "accepted" { status.lastDelivery = now }
            return status.refusals.record(answer)
        }
    }

    /// The watcher took an accepted delivery of `event`: the first time, or one seen before.
    public func deliveryTaken(_ event: String, first: Bool) {
        guard !first else { return }
        state.withLock { $0.deliveries[WatchStatus.DeliveryKey(event: event, outcome: "duplicate"), default: 0] += 1 }
    }

    /// The start's check of the hooks ended: `summary` says what it looked at, `problems` what a
    /// person should fix.
    public func hooksChecked(_ summary: String, problems: [String]) {
        state.withLock { $0.hookCheck = WatchStatus.HookCheck(summary: summary, problems: problems) }
    }

    /// The feed is polled every `seconds`; webhook deliveries stand as `deliveries` says.
    public func polling(every seconds: TimeInterval, deliveries: DeliveryWatch?) {
        state.withLock { status in
            status.pollEvery = seconds
            status.deliveryHealth = deliveries?.health.rawValue
            status.deliveriesMissed = deliveries?.missed ?? 0
            status.unhooked = deliveries?.unhooked.sorted() ?? []
        }
    }

    /// The passes handed writes over: `waiting` commands wait to be sent, or are being sent.
    public func writesWaiting(_ waiting: Int) {
        state.withLock { $0.writesWaiting = waiting }
    }

    /// The newest actions, newest first, as the page shows them.
    public func recentActions(_ actions: [WatchStatus.ActionRecord]) {
        state.withLock { $0.recentActions = Array(actions.prefix(WatchStatus.recentLimit)) }
    }

    /// A stop was asked for (SIGTERM, SIGINT): the watcher finishes the write in flight and ends.
    public func stopping() {
        state.withLock { $0.stopping = true }
    }

    /// What went wrong, in the words `/healthz` and the page use: the server's answer first.
    public static func summary(of error: GitbayError) -> String {
        let status = error.httpStatus.map { " (HTTP \($0))" } ?? ""
        switch error.kind {
        case .busy: return "the server answers 503: it is busy"
        case .rateLimited: return "the server is rate-limiting this account\(status)"
        case .serverError: return "the server fails\(status): \(error.message)"
        case .transport: return "the server cannot be reached: \(error.message)"
        default: return "the server's answer is not gitbay's\(status): \(error.message)"
        }
    }

    /// The cause of a client's wait; a backoff's is that of the failure it follows.
    private static func cause(
        of reason: ClientEvent.WaitReason, after retry: WatchStatus.WaitCause?
    ) -> WatchStatus.WaitCause {
        switch reason {
        case .pacing: return .pacing
        case .rateLimited, .tooManyWrites: return .rateLimit
        case .busy: return .busy
        case .backoff: return retry ?? .transport
        }
    }
}
