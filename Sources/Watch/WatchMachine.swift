import GitbayKit

/// What a watcher does next, decided from monotonic instants and what happened, with no effects.
///
/// The loop in ``Watcher`` asks ``next(at:)`` and does what it answers: reload the rules, run a
/// full pass, poll the feed, or wait until an instant. It tells the machine what came of it
/// (``passEnded(_:started:at:)``, ``passFailed(at:)``, ``reloadRequested()``, ``reached(_:)``,
/// ``probeLooked(_:versions:)``), so every choice of the loop (which pass, how long a pause, where
/// the feed is read from, what a probe compares with) is a function of those calls that a test
/// makes in no time.
public struct WatchMachine: Sendable, Equatable {
    /// What a pass was, as its line and `passes_total` name it.
    public enum PassKind: String, Sendable {
        /// Everything read and judged, every `fullEvery`, and whenever the feed has a gap.
        case full
        /// Only the items the feed's new events named.
        case events
        /// A poll whose events named nothing to judge.
        case idle
    }

    /// The loop's next step.
    public enum Step: Sendable, Equatable {
        /// Load the rules again before the next pass.
        case reload
        /// A full pass: the first one, or one fallen due.
        case full
        /// Read the feed, then run the pass ``pass(afterPoll:)`` answers.
        case poll
        /// Nothing until `until`, the next poll after a pass that ended well.
        case idle(until: Duration)
        /// Nothing until `until`, the end of a pause after a failure.
        case pause(until: Duration)
    }

    /// The longest pause after repeated transient failures.
    public static let longestPause: Duration = .seconds(300)

    /// How often the feed is polled, measured from each pass's start (``relaxedInterval`` while
    /// webhook deliveries work).
    public let interval: Duration
    /// How long after a full pass ended the next one falls due.
    public let fullEvery: Duration
    /// When the last full pass ended; `nil` before the first.
    public private(set) var lastFull: Duration?
    /// The transient failures in a row since the last pass that ended well.
    public private(set) var failures = 0
    /// Until when the loop waits; `nil` to go on at once.
    private var resume: Duration?
    /// Whether `resume` ends a pause after a failure rather than an idle spell.
    private var pausing = false
    /// Whether a reload was asked for and not yet taken.
    private var reloadPending = false
    /// The newest feed event handled, which the next poll reads after; `nil` before any.
    public private(set) var feedPosition: Int?
    /// What each probe (by the kind of event it raises) saw at its last look.
    private var probed: [String: [String: String]] = [:]
    /// How webhook deliveries stand, when the watcher takes them (`--webhook-secret-file`).
    public private(set) var deliveries: DeliveryWatch?
    /// Whether a delivery asked for a poll not yet begun.
    private var pollSoon = false
    /// Whether a full pass is due before anything else (deliveries turned out to be failing).
    private var fullDue = false
    /// Whether gitbay's deliveries were refused since the last one arrived: polled at `interval`.
    private var refused = false
    /// When the last pass that ended well began, which the next poll is counted from.
    private var lastPassStarted: Duration?

    /// A machine whose feed was last handled up to `feedPosition`, as the state store keeps it;
    /// with `webhooks`, one that takes deliveries and polls at ``relaxedInterval`` while they work.
    public init(interval: Duration, fullEvery: Duration, feedPosition: Int? = nil, webhooks: Bool = false) {
        self.interval = interval
        self.fullEvery = fullEvery
        self.feedPosition = feedPosition
        deliveries = webhooks ? DeliveryWatch(grace: Self.deliveryGrace(interval: interval)) : nil
    }

    /// How often the feed is polled while deliveries work, the safety net that tells whether
    /// they still do.
    ///
    /// Ten intervals, at least five minutes, at most `fullEvery`.
    public var relaxedInterval: Duration {
        min(fullEvery, max(interval * 10, .seconds(300)))
    }

    /// How often the feed is polled now: ``relaxedInterval`` while deliveries work and none was
    /// refused since the last arrived, else `interval`.
    public var pollInterval: Duration {
        deliveries?.health == .working && !refused ? relaxedInterval : interval
    }

    /// How long after a poll read an event its delivery may still come: gitbay sends due
    /// deliveries every 2 s and the first retry of a failed one after its backoff base, so two
    /// intervals, at least a minute.
    public static func deliveryGrace(interval: Duration) -> Duration {
        max(interval * 2, .seconds(60))
    }

    /// Whether a full pass has ended, which the first full pass of a restarted watcher uses to
    /// go on from the stored feed position.
    public var hasRunFull: Bool { lastFull != nil }

    /// The step at `now`: a reload asked for comes first, then any wait not yet over, then the
    /// pass: full when none ran yet or `fullEvery` passed since the last one ended.
    ///
    /// With webhooks, a delivery cuts an idle spell short (never a pause after a failure), and
    /// deliveries found failing make the next pass full: a missed push shows in no feed.
    public mutating func next(at now: Duration) -> Step {
        if reloadPending {
            reloadPending = false
            return .reload
        }
        if deliveries?.check(at: now) == true { fullDue = true }
        if let resume, now < resume, pausing || !(pollSoon || fullDue) {
            guard !pausing else { return .pause(until: resume) }
            // An idle spell ends early when an awaited delivery's grace does, so a failure is
            // seen then rather than at the next poll.
            return .idle(until: min(resume, deliveries?.nextDeadline ?? resume))
        }
        resume = nil
        pollSoon = false
        guard !fullDue, let lastFull, now - lastFull < fullEvery else {
            fullDue = false
            return .full
        }
        return .poll
    }

    /// A webhook delivery of the event `key` arrived at `now`: the next step polls the feed,
    /// which tells what it means, unless the event is the bot's own (`own`), which asks nothing.
    public mutating func deliveryArrived(_ key: DeliveryWatch.Key, at now: Duration, own: Bool) {
        deliveries?.arrived(key, at: now)
        refused = false
        if !own { pollSoon = true }
    }

    /// A spell of refused deliveries began (``RefusedDeliveries``): gitbay sent an event the
    /// watcher could not take, so polls go back to `interval` until a delivery arrives, the idle
    /// spell under way included (it ends an interval after the last pass began).
    ///
    /// No sooner, and no full pass: the refused request's headers are not signed, so whoever
    /// copies them can make the watcher poll only as it would without webhooks. A refused push is
    /// seen at the next full pass.
    public mutating func deliveriesRefused() {
        guard deliveries != nil else { return }
        refused = true
        if !pausing, let resume, let lastPassStarted { self.resume = min(resume, lastPassStarted + interval) }
    }

    /// The start's check found the hooks of `repositories` in order.
    public mutating func hooksChecked(_ repositories: [String]) {
        for repository in repositories { deliveries?.vouch(for: repository) }
    }

    /// A poll at `now` read `events`, which deliveries should have announced.
    public mutating func polled(_ events: [FeedEvent], at now: Duration) {
        deliveries?.polled(events, at: now)
    }

    /// The pass a poll leads to: a feed with a gap (it no longer reaches the position) forces a
    /// full one.
    public func pass(afterPoll gap: Bool) -> PassKind {
        gap ? .full : .events
    }

    /// Where a full pass starts the feed from without reading it: the stored position for the
    /// first full pass of a watcher started again, which goes on where the last one stopped;
    /// `nil` for any other (or after a poll that found a gap), which reads where the feed stands
    /// first, so that what happens during the pass is the next poll's, at worst judged twice.
    public func storedStart(afterPoll polled: Bool) -> Int? {
        hasRunFull || polled ? nil : feedPosition
    }

    /// A full pass begins: its probes look afresh, with nothing to compare with.
    public mutating func fullPassBegins() {
        probed = [:]
    }

    /// A probe raising `eventKind` saw `versions`: answers what it saw at its last look, `nil`
    /// on its first since the last full pass (whose reads saw everything).
    public mutating func probeLooked(_ eventKind: String, versions: [String: String]) -> [String: String]? {
        defer { probed[eventKind] = versions }
        return probed[eventKind]
    }

    /// The pass handled the feed up to `position` (none when the feed is empty).
    public mutating func reached(_ position: Int?) {
        if let position { feedPosition = position }
    }

    /// A pass of `kind` that began at `started` ended well at `now`: failures start again from
    /// none, and the next poll is an interval after the start, at once when the pass overran it.
    public mutating func passEnded(_ kind: PassKind, started: Duration, at now: Duration) {
        if kind == .full { lastFull = now }
        failures = 0
        pausing = false
        lastPassStarted = started
        let poll = started + pollInterval
        resume = poll > now ? poll : nil
    }

    /// A pass failed at `now` for a reason waiting can mend: answers the pause, the interval
    /// doubling with each failure in a row, at most ``longestPause``.
    public mutating func passFailed(at now: Duration) -> Duration {
        failures += 1
        let pause = Self.pause(after: failures, interval: interval)
        resume = now + pause
        pausing = true
        return pause
    }

    /// A reload was asked for (SIGHUP): the next step takes it.
    public mutating func reloadRequested() {
        reloadPending = true
    }

    /// The pause after `failures` transient failures in a row: `interval`, doubling, at most
    /// ``longestPause``.
    public static func pause(after failures: Int, interval: Duration) -> Duration {
        let doubled = interval * (1 << (min(max(failures, 1), 10) - 1))
        return min(longestPause, doubled)
    }
}
