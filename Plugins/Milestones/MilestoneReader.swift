import Foundation
import GitbayKit
import RuleEngine

/// Reads milestones through `milestone list`, per repository, and again, fresh, before `apply` writes.
///
/// The list is not paged and answers `null` when empty; it takes `--state` when every rule requires
/// one, and shows the organisation's milestones too, marked `org` (`internal/control/milestone.go`).
///
/// In a forge-state file they are the repository's `milestones` list, which the file keeps (with
/// their counts) for `milestone list` whatever the plugins; this kind makes its items from it.
struct MilestoneReader: ItemKindDefinition, WatchedKind, StateFileDerivation {
    var kind: ItemKind { .milestones }
    var noun: String { "milestone" }
    var referenceSeparator: String { "/milestones/" }
    var numbered: Bool { false }
    var detailStep: String { "milestone details" }

    /// Issues and merge requests carry milestones; nothing else moves them.
    func watches(family: String) -> Bool {
        ["issue", "mr"].contains(family)
    }

    /// What moves a milestone's counts: an issue or merge request opened, closed, reopened,
    /// merged or given a milestone; a comment, a label, an edit or a push does not (the counts
    /// are of items by state and milestone, `internal/store/milestones.go` `milestoneQuery`).
    ///
    /// Nothing records an event for a milestone itself, so a due date passing is left to the full pass.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        guard watches(family: event.family) else { return .none }
        let moving = ["created", "closed", "open", "merged", "milestoned"]
        return moving.contains(String(event.kind.dropFirst(event.family.count + 1))) ? .wholeRepository : .none
    }

    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        let selected = context.selected(rules, kind: kind)
        let state =
            selected.flatMap { $0.count == 1 ? $0.first : nil }.flatMap(MilestoneListCommand.StateFilter.init)
            ?? .all
        let paths = try await context.repositories(in: context.scope(of: rules))
        let entry = "milestones-\(state.rawValue)"
        let swept = await context.sweep(paths, of: kind, entry: entry, format: 1, as: [Milestone].self)
        var reading = swept.read
        var kept = Dictionary(uniqueKeysWithValues: swept.kept.map { ($0.path, $0.copy) })
        // An organisation's milestone counts the items of every repository of the organisation
        // (`milestoneQuery`), which one repository's events do not tell; every repository of it
        // lists it the same, so one list read this run answers for the copies of the others.
        let read = Set(reading)
        for owner in Set(kept.filter { $0.value.contains { $0.org == true } }.keys.map(\.owner)).sorted()
        where !read.contains(where: { $0.owner == owner }) {
            if let first = kept.keys.filter({ $0.owner == owner }).sorted().first {
                reading.append(first)
                kept[first] = nil
            }
        }
        var organisations: [String: [Milestone]] = [:]
        var requests = 0
        for path in reading {
            guard context.mayRead(path, in: swept) else {
                kept[path] = swept.copies[path] ?? kept[path]
                continue
            }
            let rows = try await context.reader.send(MilestoneListCommand(repository: path, state: state))
            requests += 1
            context.update(path) { $0.milestones = rows.map(MilestoneRecord.init) }
            organisations[path.owner] = organisations[path.owner] ?? rows.filter { $0.org == true }
            context.keepCopy(rows, of: path, kind: kind, entry: entry, format: 1)
        }
        for (path, rows) in kept {
            let fresh = organisations[path.owner] ?? rows.filter { $0.org == true }
            let own = rows.filter { $0.org != true }
            context.update(path) { $0.milestones = (fresh + own).map(MilestoneRecord.init) }
        }
        context.note("milestones: milestone list --state \(state.rawValue) per repository read", requests: requests)
    }

    /// The repository's milestones listed afresh, and the one of that title; `nil` when it is gone.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        guard let separator = item.reference.range(of: referenceSeparator) else { return nil }
        let title = String(item.reference[separator.upperBound...])
        let rows = try await context.reader.send(MilestoneListCommand(repository: path, state: .all))
        guard let milestone = rows.first(where: { $0.title == title }) else { return nil }
        return (.milestone(MilestoneRecord(milestone: milestone)), RepositoryState(path: path))
    }

    /// A milestone the listing left out (a closed one under rules that read open ones), found in
    /// the repository's whole list and put among its milestones; a listed one is whole already.
    func readWhole(_ item: ItemReference, needs: Set<ReadNeed>, into context: inout ReadContext) async throws {
        let path = item.repository
        guard !context.repository(path).milestones.contains(where: { $0.key == item.key }) else { return }
        let rows = try await context.reader.send(MilestoneListCommand(repository: path, state: .all))
        context.note("milestones: milestone list --state all", requests: 1)
        guard let milestone = rows.first(where: { $0.title == item.key }) else { return }
        context.update(path) { $0.milestones.append(MilestoneRecord(milestone: milestone)) }
    }

    /// Every milestone of each repository, open or closed (`milestone list --state all`).
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {
        for path in paths {
            let rows = try await context.reader.send(MilestoneListCommand(repository: path, state: .all))
            context.update(path) { $0.milestones = rows.map(MilestoneRecord.init) }
        }
        context.note("milestones: milestone list --state all", requests: paths.count)
    }

    /// The items are the file's milestones, with the counts the file derived from its items.
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {
        repository.milestones = file.milestones.map(MilestoneRecord.init)
    }

    /// The milestones read, as the file's `milestones` list.
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        file.milestones = repository.milestones.map(\.milestone)
    }
}
