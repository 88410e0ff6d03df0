import Foundation
import GitbayKit

/// The rolling sweep as a kind's per-repository reads use it (``RepositorySweep``).
extension ReadContext {
    /// What a per-repository read does in one run: which repositories to read, and the copy
    /// kept of each (to restore those not read, and for a read to start from: a watermark).
    public struct SweptRepositories<Copy: Sendable>: Sendable {
        /// The repositories to read, in order.
        public var read: [RepositoryPath]
        /// Each repository's copy as its plugin decoded it, read or not.
        ///
        /// Only those not in ``read`` stand in for a read; a copy that does not decode is none, so
        /// its repository is read.
        public var copies: [RepositoryPath: Copy]
        /// Why each repository in ``read`` is read; none when the run reads every one.
        public var reasons: [RepositoryPath: RepositorySweep.Reason] = [:]

        /// The copies that stand in for a read, by repository, in order.
        public var kept: [(path: RepositoryPath, copy: Copy)] {
            let reading = Set(read)
            return copies.keys.sorted().filter { !reading.contains($0) }.compactMap { path in
                copies[path].map { (path, $0) }
            }
        }
    }

    /// Notes a change a listing row showed (an open merge request's `updated_at`, which a push
    /// moves and the feed never tells), as an event the kinds judge like the feed's.
    ///
    /// The listing covers what `probe` looks at in `scope`: a kind asking for the look later this
    /// run (``look(with:in:)``) is served by these rows, not a second read.
    public func saw(_ events: [FeedEvent], covering probe: any QuietChangeProbe, in scope: RuleScope) {
        sweepLedger.saw(events, look: Self.lookKey(probe, scope))
    }

    /// Puts what `probe` finds in `scope` among the sightings before a kind's sweep judges its
    /// repositories, unless a listing or another kind already did this run.
    ///
    /// A kind whose items move with a branch tip (builds: a push supersedes them) needs the pushes
    /// the feed never shows, whatever other rules there are: without a merge request rule, no
    /// listing of merge requests would bring them, and a superseded build waited for the sweep to
    /// come round. Only where the run keeps the sweep's copies; a run that reads every repository
    /// looks too, so the copies it keeps are marked with the rows the next run compares.
    public mutating func look(with probe: any QuietChangeProbe, in scope: RuleScope) async throws {
        let key = Self.lookKey(probe, scope)
        guard sweepLedger.sweep != nil, !sweepLedger.hasLooked(key) else { return }
        let look = try await probe.look(in: scope, reader: reader)
        sweepLedger.saw(look.entries.map(\.event), look: key)
        note("changes: the \(probe.eventKind) probe's look in \(scope)", requests: pages(look.entries.count))
    }

    private static func lookKey(_ probe: any QuietChangeProbe, _ scope: RuleScope) -> String {
        probe.eventKind + " " + scope.description
    }

    /// The run's time, which a copy's facts are dated with (``isFresh(_:)``); `nil` without the feed's activity.
    public var sweepTime: Date? { sweepLedger.sweep?.now }

    /// Whether a fact a copy dates `date` was read within the sweep's period, so that it may stand
    /// in for a read of it even in a repository read for a change; never when the run reads every one.
    public func isFresh(_ date: Date?) -> Bool {
        guard let sweep = sweepLedger.skippingSweep, let date else { return false }
        return sweep.now.timeIntervalSince(date) < sweep.period && date <= sweep.now
    }

    /// Whether the run reads `path`, one of `swept`'s reads, now: always where a change or the bot's
    /// own write asks for it, else while the read budget lasts (the most stale first, in the sweep's order).
    ///
    /// One the budget leaves is taken from its copy when it has one, else left unread: its items
    /// of the kind are not judged this run, and the note says how many wait for the next runs.
    public func mayRead<Copy>(_ path: RepositoryPath, in swept: SweptRepositories<Copy>) -> Bool {
        guard ![.changed, .written].contains(swept.reasons[path]) else { return true }
        return sweepLedger.mayRead(path, hasCopy: swept.copies[path] != nil)
    }

    /// The cache's name for the copy of `path`'s `entry` (`owner/name/builds`).
    static func copyItem(_ path: RepositoryPath, entry: String) -> String {
        "\(path)/\(entry)"
    }

    /// Which of `paths` `kind`'s per-repository read `entry` reads now, and the copies of the rest.
    ///
    /// Its plugin restores the copies; every path is read when the run keeps no sweep (a full
    /// read, `--no-cache`, a feed that does not reach back). An event changes a repository when
    /// `touches` says so, else when `kind`'s plugin says it touches `kind`'s items; without
    /// `touches`, so does the bot's own write to an item of `kind` since the copy was kept. Notes the
    /// choice for `--verbose`.
    ///
    /// `periods` stretches the sweep's period for this entry: a fact that changes seldom, and by
    /// events the feed shows, is swept that many times slower.
    public mutating func sweep<Copy: Sendable>(
        _ paths: [RepositoryPath], of kind: ItemKind, entry: String, format: Int, periods: Double = 1,
        touches: (@Sendable (FeedEvent) -> Bool)? = nil, decode: (String) -> Copy?
    ) async -> SweptRepositories<Copy> {
        let entries = await cachedEntries(of: kind)
        var copies: [RepositoryPath: Copy] = [:]
        var marked: [RepositoryPath: (mark: RepositorySweep.Mark, storedAt: Date)] = [:]
        for path in paths {
            guard let copy = entries[Self.copyItem(path, entry: entry)], copy.format == format,
                let decoded = decode(copy.payload)
            else { continue }
            copies[path] = decoded
            if let mark = RepositorySweep.Mark(version: copy.version), let storedAt = copy.storedAt {
                marked[path] = (mark, storedAt)
            }
        }
        guard var sweep = sweepLedger.skippingSweep else { return SweptRepositories(read: paths, copies: copies) }
        sweep.period *= periods
        var marks: [RepositoryPath: RepositorySweep.Mark] = [:]
        for path in paths where marked[path] != nil {
            marks[path] = mark(of: path, kind: kind, sweep: sweep, touches: touches)
        }
        // A copy whose changes the feed's events name (`touches`, a repository fact) is left to
        // them: the bot's writes that change it record one, and its other writes (a comment) do not.
        let written = Set(
            marked.filter { touches == nil && sweep.writes.outdate(kind, in: $0.key, keptAt: $0.value.storedAt) }.keys)
        let choice = sweep.choose(paths, copies: marked, marks: marks, written: written)
        note("sweep of \(entry): \(choice.summary(now: sweep.now, budgeted: sweepLedger.readBudget != nil))")
        return SweptRepositories(
            read: choice.read.map(\.path), copies: copies,
            reasons: Dictionary(choice.read.map { ($0.path, $0.reason) }) { first, _ in first })
    }

    /// ``sweep(_:of:entry:format:touches:decode:)`` with copies of `type` as JSON (``GitbayJSON``).
    public mutating func sweep<Copy: Decodable & Sendable>(
        _ paths: [RepositoryPath], of kind: ItemKind, entry: String, format: Int, as type: Copy.Type
    ) async -> SweptRepositories<Copy> {
        let decoder = GitbayJSON.decoder()
        return await sweep(paths, of: kind, entry: entry, format: format) {
            try? decoder.decode(Copy.self, from: Data($0.utf8))
        }
    }

    /// Keeps `copy` as JSON (``GitbayJSON``) for ``sweep(_:of:entry:format:as:)`` to give back.
    public mutating func keepCopy(
        _ copy: some Encodable, of path: RepositoryPath, kind: ItemKind, entry: String, format: Int
    ) {
        guard let payload = try? GitbayJSON.encoder().encode(copy) else { return }
        keepCopy(String(decoding: payload, as: UTF8.self), of: path, kind: kind, entry: entry, format: format)
    }

    /// Keeps `payload` as the copy of `path`'s `entry`, marked with what the run knows of it now,
    /// for the sweep of the next runs (by the events `touches` names, as for
    /// ``sweep(_:of:entry:format:touches:decode:)``); kept only when the run keeps a cache.
    public mutating func keepCopy(
        _ payload: String, of path: RepositoryPath, kind: ItemKind, entry: String, format: Int,
        touches: (@Sendable (FeedEvent) -> Bool)? = nil
    ) {
        guard keepsCache else { return }
        let sweep = sweepLedger.sweep ?? RepositorySweep(period: RepositorySweep.defaultPeriod, now: Date(), events: [])
        keep(
            CachedDetail(
                item: Self.copyItem(path, entry: entry), kind: kind, format: format,
                version: mark(of: path, kind: kind, sweep: sweep, touches: touches).version, payload: payload))
    }

    /// The mark of `path` for `kind`: its newest feed event and listing row that `touches`, else
    /// `kind`'s plugin, says touch it (every one, for a kind that does not judge events).
    private func mark(
        of path: RepositoryPath, kind: ItemKind, sweep: RepositorySweep, touches: (@Sendable (FeedEvent) -> Bool)?
    ) -> RepositorySweep.Mark {
        let watching = registry.watching(of: kind)
        return sweepLedger.mark(of: path, sweep: sweep) { event in
            if let touches { return touches(event) }
            return watching.map { $0.watchEffect(of: event) != .none } ?? true
        }
    }
}
