import Foundation
import GitbayKit

/// A need a plugin declares: a repository fact that plugin reads (branch tips, the dependency
/// checker's state), or an item's own read beyond its detail (a merge request head's statuses),
/// with what reading it costs and how `gitbay-bot snapshot` reads it.
///
/// The engine carries such a need by name and never reads it itself: the plugin's kinds read it
/// while listing or refreshing, and the plugin's fields consult it. The ``PluginRegistry`` gives
/// every declared need its bit in a ``ReadNeed/Mask``.
public struct ReadNeedDefinition: Sendable {
    /// How `gitbay-bot snapshot` reads the fact for one repository: one request, whose answer it
    /// keeps in the repository.
    public typealias SnapshotRead =
        @Sendable (RepositoryPath, any ForgeReader, inout RepositoryState) async throws -> Void

    public let need: ReadNeed
    /// What reading it costs, for the reference's legend (`` `repo refs` ``).
    public let cost: String
    /// Where the need stands among the repository needs in the reference and in each field's
    /// "reads": lower first, plugins in the registry's order on a tie.
    ///
    /// The order is what the reference has always shown, which the plugins' own order does not give.
    public let rank: Int
    /// The gitbay command `gitbay-bot snapshot` sends for it (`repo refs`), and how it keeps the
    /// answer; `nil` when a kind's own snapshot reads it.
    public let snapshot: (command: String, read: SnapshotRead)?
    /// How the rolling sweep keeps the fact of a repository it did not read this run
    /// (``RepositorySweep``): its answer as JSON, and that JSON put back; `nil` with no snapshot read.
    public let copy:
        (keep: @Sendable (RepositoryState) -> String?, restore: @Sendable (String, inout RepositoryState) -> Bool)?
    /// Which feed events may change the fact, for the sweep to read it again after one; `nil`
    /// takes those that touch the items of the rule that needs it.
    public let changedBy: (@Sendable (FeedEvent) -> Bool)?
    /// Whether it is read per item, beyond the item's detail, by its kind's
    /// ``ItemKindReading/readBeyondDetail(_:of:in:into:)`` (for the items a rule that needs it may
    /// act on), rather than once per repository.
    public let perItem: Bool

    /// A fact a kind's own snapshot reads, or none does (open merge requests come with their list);
    /// with `perItem`, an item's read beyond its detail.
    public init(_ need: ReadNeed, cost: String, rank: Int, perItem: Bool = false) {
        self.need = need
        self.cost = cost
        self.rank = rank
        self.perItem = perItem
        snapshot = nil
        copy = nil
        changedBy = nil
    }

    /// A fact `gitbay-bot snapshot` reads with one `command` per repository (`repo refs`), kept
    /// under `need` as the command answers it; `changedBy` names the feed events that may change
    /// it (``changedBy``).
    public init<Command: GitbayCommand>(
        _ need: ReadNeed, cost: String, rank: Int, snapshot command: String,
        changedBy: (@Sendable (FeedEvent) -> Bool)? = nil, _ make: @escaping @Sendable (RepositoryPath) -> Command
    ) where Command.Response: Hashable & Codable {
        self.need = need
        self.cost = cost
        self.rank = rank
        self.changedBy = changedBy
        perItem = false
        snapshot = (
            command,
            { path, reader, repository in
                repository[need] = try await reader.send(make(path))
            }
        )
        copy = (
            { repository in
                (repository[need] as Command.Response?).flatMap { try? GitbayJSON.encoder().encode($0) }.map {
                    String(decoding: $0, as: UTF8.self)
                }
            },
            { payload, repository in
                guard let fact = try? GitbayJSON.decoder().decode(Command.Response.self, from: Data(payload.utf8))
                else { return false }
                repository[need] = fact
                return true
            }
        )
    }
}
