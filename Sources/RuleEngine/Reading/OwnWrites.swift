import Foundation
import GitbayKit

/// The bot's own applied writes, as the copies kept between runs are judged by: the one place
/// where what the bot did meets what it keeps.
///
/// A per-repository copy the rolling sweep keeps (``RepositorySweep``) is trusted while the feed
/// shows nothing new there, but gitbay records no event for some of the bot's writes (a milestone
/// closed), so such a copy went on saying what the write had undone until the sweep reached it,
/// and every run in between planned the write again: at 100 repositories, 40 milestone closes
/// already done took 40 of 50 `--max-actions` slots run after run. A copy kept before the bot
/// wrote to an item of its kind in its repository is therefore read again, whatever the feed
/// says. The journal is the one record of every write, and a `run` and the `plan` after it share
/// it through the state database, which is why the writes are taken from it rather than from
/// the process that made them.
///
/// The read cache's item details need no such judgement: recording a write's intent drops the
/// item's entry (``ReadCache``). A write that changes another kind's copy (an issue closed moves
/// its milestone's counts, a merge request merged supersedes builds) is told by the feed, which
/// records an event for each of those.
public struct OwnWrites: Sendable, Hashable {
    /// When the bot last applied a write to an item of each kind, by repository.
    private var latest: [RepositoryPath: [ItemKind: Date]] = [:]

    /// No writes.
    public init() {}

    /// The writes `journal` records as applied, filed under the items `registry` can name.
    public init(journal: [JournalEntry], registry: PluginRegistry) {
        for entry in journal where entry.phase == .result && entry.outcome == "applied" {
            guard let reference = registry.reference(parsing: entry.item) else { continue }
            add(reference.kind, in: reference.repository, at: entry.at)
        }
    }

    /// Notes that the bot applied a write to an item of `kind` in `path` at `date`.
    public mutating func add(_ kind: ItemKind, in path: RepositoryPath, at date: Date) {
        let known = latest[path]?[kind]
        latest[path, default: [:]][kind] = known.map { max($0, date) } ?? date
    }

    /// Whether a copy of `kind`'s items in `path` kept at `keptAt` may miss a write of the bot's:
    /// one to an item of that kind there at or after it (the same instant counts, since a run's
    /// copies and its writes share its clock, which `--now` freezes).
    public func outdate(_ kind: ItemKind, in path: RepositoryPath, keptAt: Date) -> Bool {
        guard let written = latest[path]?[kind] else { return false }
        return written >= keptAt
    }
}
