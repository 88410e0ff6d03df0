import Foundation
import GitbayKit

/// One kind of item rules act on, as the plugin that brings it declares it: how its items are
/// read from a server (the listing the rules need, one item's details, a fresh re-read before
/// `apply` writes) and what the engine must know of them.
///
/// The read planner, the evaluator and the applier drive these and know nothing else of a kind,
/// so a plugin that adds a kind brings all of that with it.
public protocol ItemKindDefinition: Sendable {
    /// The kind it reads.
    var kind: ItemKind { get }

    /// The singular noun, for messages ("issue", "merge request").
    var noun: String { get }

    /// What stands between the repository and the number in a reference to an item (`#` for
    /// `owner/name#12`), as people and gitbay's web write it.
    var referenceSeparator: String { get }

    /// Whether its items are named by number (`#12`); otherwise by their ``ItemRecord/key``, a title.
    var numbered: Bool { get }

    /// How `--verbose` names this kind's detail reads (`issue details: issue show ...`).
    var detailStep: String { get }

    /// Whether anyone but `me` has acted on `item` since `date` (a comment, the system's notes
    /// aside): an action an earlier run left unfinished is then left to the rules to decide afresh.
    func othersActed(on item: Item, since date: Date, me: String) -> Bool

    /// Lists what `rules` (all of this kind) may act on into `session`, asking the server to
    /// filter by what every rule requires, and reads the repository facts their conditions need.
    func list(_ rules: [Rule], into session: inout ReadSession) async throws

    /// Replaces a listed item with its detail read (`issue show`); a kind whose listing rows are
    /// complete leaves the item as it is.
    func readDetail(of number: Int, in path: RepositoryPath, into session: inout ReadSession) async throws

    /// The format of this kind's entries in the read cache, raised whenever the payload changes;
    /// 0 keeps none (every detail is read fresh).
    var cacheFormat: Int { get }

    /// What the listing says of `item` that moves whenever anything a cached field or action reads
    /// from its detail changes (an issue's `updated_at`); `nil` when the listing gives no such
    /// version, and the detail is then read fresh.
    func cacheVersion(of item: Item) -> String?

    /// The item's detail as the read cache keeps it; `nil` when it has none to keep.
    func cachePayload(of item: Item) -> String?

    /// Puts cached details (`payloads` by item number) in place of the listed items in `path`, as
    /// ``readDetail(of:in:into:)`` does with fresh ones, keeping what the listing read afresh
    /// (labels learnt by query, state, times); answers how many it restored. A payload that cannot
    /// be decoded is skipped, and that detail is read fresh.
    func restoreDetails(_ payloads: [Int: String], in path: RepositoryPath, into session: inout ReadSession) -> Int

    /// What a feed event does to this kind's items, for `watch`: nothing, one item, or any item of
    /// the event's repository. By default any: an event the plugin does not judge is never missed.
    func watchEffect(of event: FeedEvent) -> WatchEffect

    /// The key of this kind's list in a repository of a forge-state file (`issues`).
    var stateFileKey: String { get }

    /// This kind's records from its list in a forge-state file (the list at `key` of `container`),
    /// sorted newest first and normalised as gitbay serves them (sorted names, defaults filled);
    /// everything is known of them. What gitbay derives across items comes after, in ``derive(_:file:)``.
    func decodeStateFile(
        from container: KeyedDecodingContainer<StateFileKey>, key: StateFileKey
    ) throws -> any ItemCollection

    /// Writes this kind's records back to its list, leaving out what gitbay derives on read.
    func encodeStateFile(
        _ collection: any ItemCollection, to container: inout KeyedEncodingContainer<StateFileKey>, key: StateFileKey
    ) throws

    /// Refuses what gitbay would never hold (a number twice, an unknown state), naming the value
    /// by its JSON path under `path` (`repos[0].issues`).
    func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError)

    /// Fills in what gitbay derives on every read of the file's repository once every kind is
    /// decoded (a merge request's stack and gates).
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository)

    /// Adds this kind's items of `repository` to the counts `label list` and `milestone list`
    /// give for `file`.
    func count(_ repository: RepositoryState, into file: inout ForgeStateRepository)

    /// What a repository's forge-state file records of this kind beyond the list, taken from what
    /// a run read (the merge gates the merge requests echo).
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository)

    /// Reads every item of this kind in `paths` (already in `session`) as a forge-state file keeps
    /// it, for `gitbay-bot snapshot`: whole, whatever a rule could consult; closed ones too when
    /// `allStates`. `scope` names the same repositories, for listings that span them.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into session: inout ReadSession
    ) async throws

    /// The item as it is now, with the repository facts that `needs` consult, or `nil` when it is
    /// gone; facts are read once per repository and kept in `session` for the rest of the run.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in session: inout ReadSession
    ) async throws -> (item: Item, repository: RepositoryState)?
}

extension ItemKindDefinition {
    public var numbered: Bool { true }

    /// Any item of the event's repository.
    public func watchEffect(of event: FeedEvent) -> WatchEffect { .wholeRepository }

    /// No read cache.
    public var cacheFormat: Int { 0 }

    public func cacheVersion(of item: Item) -> String? { nil }

    public func cachePayload(of item: Item) -> String? { nil }

    public func restoreDetails(
        _ payloads: [Int: String], in path: RepositoryPath, into session: inout ReadSession
    ) -> Int { 0 }

    /// No detail read: the listing's rows are whole.
    public func readDetail(of number: Int, in path: RepositoryPath, into session: inout ReadSession) async throws {}

    /// Nobody comments on such items: whether an unfinished action still applies is what the
    /// fresh read says.
    public func othersActed(on item: Item, since date: Date, me: String) -> Bool { false }

    /// Rows a forge-state file can hold are rows gitbay accepts.
    public func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError) {}

    /// Nothing derived across the repository's items.
    public func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {}

    /// No item of this kind counts towards labels or milestones.
    public func count(_ repository: RepositoryState, into file: inout ForgeStateRepository) {}

    /// Nothing recorded beyond the kind's own list.
    public func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {}
}
