import Foundation
import GitbayKit

/// Which repositories a run reads per repository (builds, milestones, the dependency checker)
/// and which it takes from the read cache's copy: those where something may have changed, those
/// never read, those a period old, and a rolling share of the rest, oldest first.
///
/// At a thousand repositories, one read each of builds, milestones and open merge requests spent
/// most of an account's hourly budget on repositories where nothing had happened. What tells a
/// change is on the server's clock, never the bot's (which may be skewed): the id of the newest
/// feed event that touches the kind there, and the newest `updated_at` a listing row showed
/// there (a push moves an open merge request's, which the feed never shows). A repository whose
/// marks moved since its copy was kept is read; one whose copy is `period` old is read; and each
/// run reads the oldest copies in proportion to the time since the last run, so that a cron
/// every 15 minutes with a 6-hour period reads a 24th of them, without a burst, and every
/// repository by the first run after its copy turns a period old. A change nothing announces (a push to a branch with no open
/// merge request, a build queued, a milestone closed by hand) waits at most one period.
///
/// The bot's own writes are marks too: a copy kept before the bot wrote to an item of its kind in
/// its repository is read again (``OwnWrites``), since gitbay records no event for some of them.
///
/// A copy can delay an action, never cause a wrong one: `apply` reads each item and its
/// repository's facts afresh before it writes.
public struct RepositorySweep: Sendable, Hashable {
    /// The longest a repository goes unread when nothing says it changed.
    public var period: TimeInterval
    /// The run's time, which the copies' ages are judged against.
    public var now: Date
    /// The feed events known (kept by earlier runs and read by this one), by repository.
    public var events: [RepositoryPath: [FeedEvent]]
    /// The bot's own applied writes, which the feed may not show.
    public var writes: OwnWrites

    /// The sweep for a run at `now` that knows `events`: every event the feed showed since the
    /// last run, which is what it can rely on (`ActivityHistory/complete`), and the bot's `writes`.
    public init(period: TimeInterval, now: Date, events: [FeedEvent], writes: OwnWrites = OwnWrites()) {
        self.period = period
        self.now = now
        self.events = Dictionary(grouping: events, by: \.repo)
        self.writes = writes
    }

    /// The default period: a 24th of it in each run of a cron every 15 minutes.
    public static let defaultPeriod: TimeInterval = 6 * 3600

    /// What one repository looked like to a kind when its copy was kept, on the server's clock.
    public struct Mark: Sendable, Hashable {
        /// The id of the newest feed event that touches the kind there; 0 when none is known.
        public var event: Int
        /// The newest `updated_at` of a listing row that touches the kind there, if any.
        public var seen: Date?

        public init(event: Int, seen: Date?) {
            self.event = event
            self.seen = seen
        }

        /// The mark as the copy's version: `e<id>` and, with a row, `;t<time>`.
        public var version: String {
            "e\(event)" + (seen.map { ";t" + GitbayTimestamp.format($0, precision: .milliseconds) } ?? "")
        }

        /// A mark read back from a copy's version; `nil` for one this code did not write.
        public init?(version: String) {
            let parts = version.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = parts.first, first.hasPrefix("e"), let event = Int(first.dropFirst()), parts.count <= 2
            else { return nil }
            self.event = event
            seen = nil
            if parts.count == 2 {
                guard parts[1].hasPrefix("t"), let date = GitbayTimestamp.parse(String(parts[1].dropFirst())) else {
                    return nil
                }
                seen = date
            }
        }

        /// Whether `self`, now, says more happened than `earlier` did.
        func moved(since earlier: Mark) -> Bool {
            if event > earlier.event { return true }
            guard let seen else { return false }
            return earlier.seen.map { seen > $0 } ?? true
        }
    }

    /// The mark of `path` now: the newest of its feed events and of `sightings` that `touches`
    /// says concern the kind.
    public func mark(of path: RepositoryPath, sightings: [FeedEvent], touches: (FeedEvent) -> Bool) -> Mark {
        let event = (events[path] ?? []).filter(touches).map(\.id).max() ?? 0
        let seen = sightings.filter { $0.repo == path && touches($0) }.map(\.createdAt).max()
        return Mark(event: event, seen: seen)
    }

    /// Why a repository is read in this run.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// No copy of it is kept (or one of another format).
        case unread = "never read"
        /// Its marks moved since its copy was kept.
        case changed
        /// The bot wrote to an item its copy holds since it was kept (``OwnWrites``).
        case written = "written by the bot"
        /// Its copy is a period old.
        case due = "a period old"
        /// It is among the oldest copies, the run's share of the sweep.
        case share = "the sweep's share"
    }

    /// Which repositories to read and why; the rest are taken from their copies.
    public struct Choice: Sendable, Hashable {
        /// The repositories to read, with why, the most stale first: those changed, those never
        /// read, then the copies oldest first.
        public var read: [(path: RepositoryPath, reason: Reason)] = []
        /// The repositories whose copy stands in for a read.
        public var kept: [RepositoryPath] = []
        /// When the oldest copy kept was stored.
        public var oldestKept: Date?

        public static func == (lhs: Choice, rhs: Choice) -> Bool {
            lhs.read.map(\.path) == rhs.read.map(\.path) && lhs.read.map(\.reason) == rhs.read.map(\.reason)
                && lhs.kept == rhs.kept && lhs.oldestKept == rhs.oldestKept
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(read.map(\.path))
            hasher.combine(kept)
        }

        /// One line for `--verbose`: how many were read for each reason, how many kept.
        ///
        /// Under a read budget (`budgeted`) the choice is what is due, and the budget decides how
        /// many of them are read: the line says `due`, and the budget's own line what it left.
        public func summary(now: Date, budgeted: Bool = false) -> String {
            var parts: [String] = []
            for reason in Reason.allCases {
                let count = read.filter { $0.reason == reason }.count
                if count > 0 { parts.append("\(count) \(reason.rawValue)") }
            }
            let reads =
                "\(read.count) of \(read.count + kept.count) repositories \(budgeted ? "due" : "read")"
                + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
            guard !kept.isEmpty else { return reads }
            let age = oldestKept.map {
                " (the oldest read \(DurationLiteral.words(seconds: now.timeIntervalSince($0))) ago)"
            }
            return reads + ", \(kept.count) from the sweep's copy" + (age ?? "")
        }
    }

    /// Chooses, among `paths`, what to read: each has its copy's mark and date in `copies` (none
    /// when never read or of another format), and its mark now in `marks`; those in `written`
    /// had a copy the bot's own writes outdate (``OwnWrites/outdate(_:in:keptAt:)``).
    ///
    /// The share is `paths.count` times the time since the newest copy (the last run that read
    /// any), over the period, rounded up: the oldest copies not read for a change. Those a period
    /// old are among them, and are read even beyond it.
    public func choose(
        _ paths: [RepositoryPath], copies: [RepositoryPath: (mark: Mark, storedAt: Date)],
        marks: [RepositoryPath: Mark], written: Set<RepositoryPath> = []
    ) -> Choice {
        var choice = Choice()
        var reasons: [RepositoryPath: Reason] = [:]
        var rest: [(path: RepositoryPath, storedAt: Date)] = []
        for path in paths {
            guard let copy = copies[path] else {
                reasons[path] = .unread
                continue
            }
            if (marks[path] ?? Mark(event: 0, seen: nil)).moved(since: copy.mark) {
                reasons[path] = .changed
            } else if written.contains(path) {
                reasons[path] = .written
            } else {
                rest.append((path, copy.storedAt))
            }
        }
        // The oldest copies first: those a period old are always read, and count toward the share.
        rest.sort { ($0.storedAt, $0.path) < ($1.storedAt, $1.path) }
        let due = rest.prefix { now.timeIntervalSince($0.storedAt) >= period }.count
        var share = 0
        if let newest = copies.values.map(\.storedAt).max(), period > 0 {
            let elapsed = max(0, now.timeIntervalSince(newest))
            share = Int((Double(paths.count) * elapsed / period).rounded(.up))
        }
        for (index, entry) in rest.prefix(max(due, share)).enumerated() {
            reasons[entry.path] = index < due ? .due : .share
        }
        for path in paths where reasons[path] == nil {
            choice.kept.append(path)
            if let stored = copies[path]?.storedAt {
                choice.oldestKept = min(choice.oldestKept ?? stored, stored)
            }
        }
        // The most stale first, which is what a read budget keeps: the changed or written, the never read,
        // then the copies oldest first.
        let rank: [Reason: Int] = [.changed: 0, .written: 0, .unread: 1, .due: 2, .share: 2]
        choice.read = reasons.map { (path: $0.key, reason: $0.value) }.sorted { left, right in
            let (a, b) = (rank[left.reason] ?? 3, rank[right.reason] ?? 3)
            if a != b { return a < b }
            let (x, y) = (copies[left.path]?.storedAt ?? .distantPast, copies[right.path]?.storedAt ?? .distantPast)
            return x != y ? x < y : left.path < right.path
        }
        return choice
    }
}
