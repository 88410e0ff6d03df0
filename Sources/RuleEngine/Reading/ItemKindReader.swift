import Foundation
import GitbayKit

/// How a plugin reads the items of one kind from a server: the listing the rules need, one
/// item's details, and a fresh re-read before `apply` writes.
///
/// The read planner and the applier drive these and know nothing else of a kind, so a plugin
/// that adds a kind brings its reads with it.
public protocol ItemKindReader: Sendable {
    /// The kind it reads.
    var kind: ItemKind { get }

    /// How `--verbose` names this kind's detail reads (`issue details: issue show ...`).
    var detailStep: String { get }

    /// Lists what `rules` (all of this kind) may act on into `session`, asking the server to
    /// filter by what every rule requires, and reads the repository facts their conditions need.
    func list(_ rules: [Rule], into session: inout ReadSession) async throws

    /// Replaces a listed item with its detail read (`issue show`); a kind whose listing rows are
    /// complete leaves the item as it is.
    func readDetail(of number: Int, in path: RepositoryPath, into session: inout ReadSession) async throws

    /// The item as it is now, with the repository facts that `needs` consult, or `nil` when it is
    /// gone; facts are read once per repository and kept in `session` for the rest of the run.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in session: inout ReadSession
    ) async throws -> (item: Item, repository: RepositoryState)?
}
