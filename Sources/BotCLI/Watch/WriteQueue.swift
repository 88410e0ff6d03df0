import Foundation
import RuleEngine

/// The writes a watcher's passes judged and has not sent yet, in the order it sends them.
///
/// A pass hands its acting entries over and goes on reading while they are sent, one entry at a
/// time: at gitbay's 12 writes a minute a backlog of fifty takes four minutes, and a comment made
/// meanwhile must not wait for it. So the entries of an events pass (someone acted) go out before
/// those of a full pass (the backlog), and a later pass's judgement of an item replaces the one
/// waiting: what waits was judged on older news, and the newest judgement is the one to act on, or
/// not to, when the item no longer matches. The entry being sent is never replaced; the applier's
/// fresh read before each write tells whether a later judgement of it is already done. The jobs
/// of one pass share the repository facts their re-checks read (``RepositoryFacts``), so sending
/// them one at a time reads no more than sending the pass's plan at once.
struct WriteQueue: Sendable {
    /// Which pass judged a job, which decides how soon it goes out.
    enum Lane: Int, Sendable, Comparable {
        /// An events pass: an answer to what someone did.
        case prompt
        /// A full pass: the sweep of everything.
        case backlog

        static func < (lhs: Lane, rhs: Lane) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One acting entry with what the applier needs to send it.
    struct Job: Sendable {
        /// A plan of this one entry, with its rule's summary (the applier checks its schedule).
        let plan: Plan
        /// Who did what to the items, as the pass that judged the entry read it.
        let activity: ActivityHistory?
        /// The repository facts the jobs of the same pass read, so each is read once for them all.
        let facts: RepositoryFacts
        var lane: Lane

        var entry: PlanEntry { plan.entries[0] }
        var key: Key { Key(rule: entry.rule, item: entry.item.reference) }
    }

    /// A rule's judgement of an item: what one job stands for.
    struct Key: Hashable, Sendable {
        let rule: String
        let item: String
    }

    /// The jobs not yet begun, in the order they were handed over.
    private(set) var waiting: [Job] = []
    /// The job the applier is sending.
    private(set) var sending: Job?
    /// Whether a pass judged the item of ``sending`` again while it was sent.
    private var sendingJudged = false
    /// What the jobs sent since the last ``takeFinished()`` came to.
    private var finished: [ApplyOutcome] = []

    /// Takes the acting entries of `plan`, judged by a pass of `lane`.
    ///
    /// Each waiting job whose entry the pass judged again (`judged`) gives way to the pass's own
    /// judgement of it, in its place and at the more prompt of the two lanes, or is dropped when the
    /// pass no longer acts on it; the pass's other entries join the end, in the plan's order.
    mutating func hand(
        _ plan: Plan, activity: ActivityHistory?, lane: Lane, judged: (PlanEntry) -> Bool
    ) {
        var fresh: [Key: Job] = [:]
        var order: [Key] = []
        let facts = RepositoryFacts()
        for entry in plan.entries where entry.hasPendingActions {
            let job = Job(plan: plan.only(entry), activity: activity, facts: facts, lane: lane)
            if fresh.updateValue(job, forKey: job.key) == nil { order.append(job.key) }
        }
        if let sending, judged(sending.entry) { sendingJudged = true }
        waiting = waiting.compactMap { old in
            guard judged(old.entry) else { return old }
            guard var new = fresh.removeValue(forKey: old.key) else { return nil }
            new.lane = min(old.lane, new.lane)
            return new
        }
        waiting += order.compactMap { fresh[$0] }
    }

    /// The job to send next, which becomes ``sending``: the first prompt one, else the first.
    mutating func next() -> Job? {
        guard sending == nil, !waiting.isEmpty else { return nil }
        let index = waiting.firstIndex { $0.lane == .prompt } ?? waiting.startIndex
        sending = waiting.remove(at: index)
        sendingJudged = false
        return sending
    }

    /// The job being sent came to `report`.
    mutating func sent(_ report: ApplyReport) {
        sending = nil
        finished += report.outcomes
    }

    /// The job being sent could not be (the server was out of reach): it goes first again, unless
    /// a pass judged its item anew meanwhile, whose judgement stands.
    mutating func putBack() {
        guard let job = sending else { return }
        sending = nil
        if !sendingJudged { waiting.insert(job, at: 0) }
    }

    /// What the jobs sent since the last call came to, for a pass's line.
    mutating func takeFinished() -> [ApplyOutcome] {
        defer { finished = [] }
        return finished
    }

    /// The commands waiting or being sent.
    var commands: Int {
        waiting.reduce(sending?.entry.pendingCommandCount ?? 0) { $0 + $1.entry.pendingCommandCount }
    }
}

extension Plan {
    /// This plan with only `entry`, and only its rule's summary: one job of a watcher's write queue.
    fileprivate func only(_ entry: PlanEntry) -> Plan {
        var plan = self
        plan.entries = [entry]
        plan.rules = rules.filter { $0.name == entry.rule }
        plan.guards = []
        return plan
    }
}
