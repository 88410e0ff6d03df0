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
public struct WriteQueue: Sendable {
    /// Which pass judged a job, which decides how soon it goes out.
    public enum Lane: Int, Sendable, Comparable {
        /// An events pass: an answer to what someone did.
        case prompt
        /// A full pass: the sweep of everything.
        case backlog

        public static func < (lhs: Lane, rhs: Lane) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One acting unit (an entry, or a comment's whole answer: ``PlanUnit``) with what the applier
    /// needs to send it.
    public struct Job: Sendable {
        /// A plan of this one unit, with its rules' summaries (the applier checks their schedules).
        public let plan: Plan
        /// Who did what to the items, as the pass that judged the entry read it.
        public let activity: ActivityHistory?
        /// The repository facts the jobs of the same pass read, so each is read once for them all.
        public let facts: RepositoryFacts
        var lane: Lane

        let key: PlanUnit.Key

        /// The unit's first entry.
        var entry: PlanEntry { plan.entries[0] }

        /// Whether a pass's judgement (`judged`) covers any entry of the job.
        func isJudged(by judged: (PlanEntry) -> Bool) -> Bool { plan.entries.contains(where: judged) }
    }

    /// The jobs not yet begun, in the order they were handed over.
    public private(set) var waiting: [Job] = []
    /// The job the applier is sending.
    public private(set) var sending: Job?
    /// Whether a pass judged the item of ``sending`` again while it was sent.
    private var sendingJudged = false
    /// What the jobs sent since the last ``takeFinished()`` came to.
    private var finished: [ApplyOutcome] = []

    /// An empty queue.
    public init() {}

    /// Takes the acting entries of `plan`, judged by a pass of `lane`.
    ///
    /// Each waiting job whose entry the pass judged again (`judged`) gives way to the pass's own
    /// judgement of it, in its place and at the more prompt of the two lanes, or is dropped when the
    /// pass no longer acts on it; the pass's other entries join the end, in the plan's order.
    public mutating func hand(
        _ plan: Plan, activity: ActivityHistory?, lane: Lane, judged: (PlanEntry) -> Bool
    ) {
        var fresh: [PlanUnit.Key: Job] = [:]
        var order: [PlanUnit.Key] = []
        let facts = RepositoryFacts()
        for unit in PlanUnit.all(in: plan.entries)
        where unit.entries.contains(where: { plan.entries[$0].hasPendingActions }) {
            let job = Job(plan: plan.only(unit), activity: activity, facts: facts, lane: lane, key: unit.key)
            if fresh.updateValue(job, forKey: job.key) == nil { order.append(job.key) }
        }
        if let sending, sending.isJudged(by: judged) { sendingJudged = true }
        waiting = waiting.compactMap { old in
            guard old.isJudged(by: judged) else { return old }
            guard var new = fresh.removeValue(forKey: old.key) else { return nil }
            new.lane = min(old.lane, new.lane)
            return new
        }
        waiting += order.compactMap { fresh[$0] }
    }

    /// The job to send next, which becomes ``sending``: the first prompt one, else the first.
    public mutating func next() -> Job? {
        guard sending == nil, !waiting.isEmpty else { return nil }
        let index = waiting.firstIndex { $0.lane == .prompt } ?? waiting.startIndex
        sending = waiting.remove(at: index)
        sendingJudged = false
        return sending
    }

    /// The job being sent came to `report`.
    public mutating func sent(_ report: ApplyReport) {
        sending = nil
        finished += report.outcomes
    }

    /// The job being sent could not be (the server was out of reach): it goes first again, unless
    /// a pass judged its item anew meanwhile, whose judgement stands.
    public mutating func putBack() {
        guard let job = sending else { return }
        sending = nil
        if !sendingJudged { waiting.insert(job, at: 0) }
    }

    /// What the jobs sent since the last call came to, for a pass's line.
    public mutating func takeFinished() -> [ApplyOutcome] {
        defer { finished = [] }
        return finished
    }

    /// The commands waiting or being sent.
    public var commands: Int {
        waiting.reduce(sending?.plan.pendingCommandCount ?? 0) { $0 + $1.plan.pendingCommandCount }
    }
}

extension Plan {
    /// This plan with only the entries of `unit`, and only their rules' summaries: one job of a
    /// watcher's write queue.
    fileprivate func only(_ unit: PlanUnit) -> Plan {
        var plan = self
        plan.entries = unit.entries.map { entries[$0] }
        let names = Set(plan.entries.map(\.rule))
        plan.rules = rules.filter { names.contains($0.name) }
        plan.guards = []
        plan.notes = nil
        return plan
    }
}
