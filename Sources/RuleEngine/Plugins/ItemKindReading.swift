import Foundation
import GitbayKit

/// How one kind's items are read from a server: the listing the rules need, one item's details,
/// a fresh re-read before `apply` writes, and the whole read `gitbay-bot snapshot` records.
///
/// Reads go through a ``ReadContext``, which offers the reader, the repositories in scope and
/// what the rules ask of them, so a plugin reads without reaching into the planner's own state.
public protocol ItemKindReading: Sendable {
    /// Lists what `rules` (all of this kind) may act on into `context`, asking the server to
    /// filter by what every rule requires, and reads the repository facts their conditions need.
    func list(_ rules: [Rule], into context: inout ReadContext) async throws

    /// Replaces a listed item with its detail read (`issue show`); a kind whose listing rows are
    /// complete leaves the item as it is.
    func readDetail(of number: Int, in path: RepositoryPath, into context: inout ReadContext) async throws

    /// Reads one item whole into `context` for `explain`, whether or not the listing holds it.
    ///
    /// The rules' listings filter on the server (`is:open`), so a closed issue or a merged merge
    /// request is missing from them, and nobody could ask why the bot closed it. A listed item gets
    /// its detail read (``readDetail(of:in:into:)``); one the listing left out is read by itself
    /// and put among its repository's items, with what the listing would have told of it
    /// (an issue's `updated_at`) and the repository facts `needs` consult that are still unread.
    /// An item the forge does not have is left out.
    func readWhole(_ item: ItemReference, needs: Set<ReadNeed>, into context: inout ReadContext) async throws

    /// Reads what `needs` asks of one item that its detail does not give (``PluginRegistry/beyondDetail``:
    /// a merge request's head statuses), marking it known; a kind with nothing more reads nothing.
    func readBeyondDetail(
        _ needs: Set<ReadNeed>, of number: Int, in path: RepositoryPath, into context: inout ReadContext
    ) async throws

    /// The item as it is now, with the repository facts that `needs` consult, or `nil` when it is
    /// gone; facts are read once per repository and kept in `context` for the rest of the run.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)?

    /// Whether a person has acted on the item of `context` since `date` (a comment; the system's
    /// notes, the bot's and the `bots:` accounts' aside): an action an earlier run left unfinished
    /// is then left to the rules to decide afresh.
    func othersActed(in context: ItemContext, since date: Date) -> Bool

    /// Reads every item of this kind in `paths` (already in `context`) as a forge-state file keeps
    /// it, for `gitbay-bot snapshot`: whole, whatever a rule could consult; closed ones too when
    /// `allStates`. `scope` names the same repositories, for listings that span them.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws
}

extension ItemKindReading {
    /// Only the detail read: a kind whose listing holds every item it could explain (builds).
    public func readWhole(_ item: ItemReference, needs: Set<ReadNeed>, into context: inout ReadContext) async throws {
        try await readDetail(of: item.number, in: item.repository, into: &context)
    }

    /// No detail read: the listing's rows are whole.
    public func readDetail(of number: Int, in path: RepositoryPath, into context: inout ReadContext) async throws {}

    /// Nothing beyond the detail.
    public func readBeyondDetail(
        _ needs: Set<ReadNeed>, of number: Int, in path: RepositoryPath, into context: inout ReadContext
    ) async throws {}

    /// Nobody comments on such items: whether an unfinished action still applies is what the
    /// fresh read says.
    public func othersActed(in context: ItemContext, since date: Date) -> Bool { false }
}
