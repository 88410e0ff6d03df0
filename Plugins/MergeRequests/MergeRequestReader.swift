import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Reads merge requests: `mr list` per repository (open only when every rule requires it), the
/// activity times from `mr list --q` when a rule needs them, and `mr show` for details.
struct MergeRequestReader: ItemKindDefinition {
    var kind: ItemKind { .mergeRequests }
    var noun: String { "merge request" }
    var referenceSeparator: String { "!" }
    var detailStep: String { "merge request details: mr show for undecided or matching merge requests" }

    /// A merge request event touches its merge request; a merge or a close, every one of the repository.
    ///
    /// gitbay retargets what was stacked on the merged one without an event of its own. A push
    /// moves heads and a status or build moves checks, of merge requests the event does not name.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        switch event.family {
        case "mr":
            guard let number = event.number, event.kind != "mr.merged", event.kind != "mr.closed" else {
                return .wholeRepository
            }
            return .item(number)
        case "issue": return .none
        default: return .wholeRepository
        }
    }

    func othersActed(on item: Item, since date: Date, me: String) -> Bool {
        guard let record = item.box(as: MergeRequestRecord.self)?.record else { return false }
        return Comment.othersActed(in: record.mergeRequest.comments, since: date, me: me)
    }

    func list(_ rules: [Rule], into session: inout ReadSession) async throws {
        let scope = session.scope(of: rules)
        let openOnly = session.selected(rules, kind: kind) == ["open"]
        let paths = try await session.repositories(in: scope)
        var requests = 0
        for path in paths {
            let rows = try await session.reader.all(
                try MergeRequestListCommand(repository: path, state: openOnly ? .open : .all))
            requests += session.pages(rows.count)
            var repository = session.repository(path)
            repository.mergeRequests = rows.map { MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: []) }
            // A stack's parent is judged from the server's own retarget note, written only on merge,
            // so the open ones listed answer for all: a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
            session.repositories[path] = repository
        }
        session.note("merge requests: mr list --state \(openOnly ? "open" : "all") per repository", requests: requests)
        // The activity time is also the version a cached detail is checked against.
        let needs = session.conditionNeeds(rules, kind: kind)
        guard needs.contains(.activity) || session.keepsCache else { return }
        var query = "\(scope) is:mr"
        if openOnly { query += " is:open" }
        let rows = try await session.reader.all(try MergeRequestQueryCommand(query: query))
        session.note("merge request activity: mr list --q \"\(query)\"", requests: session.pages(rows.count))
        var activity: [RepositoryPath: [Int: Date]] = [:]
        for row in rows {
            activity[row.repo, default: [:]][row.number] = row.updatedAt
        }
        for (path, times) in activity {
            guard var mergeRequests = session.repositories[path]?.mergeRequests else { continue }
            for index in mergeRequests.indices {
                guard let time = times[mergeRequests[index].number] else { continue }
                mergeRequests[index].mergeRequest.updatedAt = time
                mergeRequests[index].known.insert(.activity)
            }
            session.repositories[path]?.mergeRequests = mergeRequests
        }
    }

    /// Replaces a listed merge request with its `mr show`, keeping the `updated_at` a query gave.
    func readDetail(of number: Int, in path: RepositoryPath, into session: inout ReadSession) async throws {
        var mergeRequest = try await session.reader.send(
            try MergeRequestShowCommand(repository: path, number: number))
        guard
            let index = session.repositories[path]?.mergeRequests.firstIndex(where: {
                $0.mergeRequest.number == number
            })
        else { return }
        mergeRequest.updatedAt =
            mergeRequest.updatedAt ?? session.repositories[path]?.mergeRequests[index].mergeRequest.updatedAt
        session.repositories[path]?.mergeRequests[index].mergeRequest = mergeRequest
        session.repositories[path]?.mergeRequests[index].known.formUnion([.detail, .freshDetail, .labels])
    }

    /// One `mr list --q` across the scope (for `updated_at`), then `mr show` for each.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into session: inout ReadSession
    ) async throws {
        let query = "\(scope) is:mr" + (allStates ? "" : " is:open")
        let rows = try await session.reader.all(try MergeRequestQueryCommand(query: query)).filter {
            session.repositories[$0.repo] != nil
        }
        session.note("merge requests: mr list --q \"\(query)\"", requests: session.pages(rows.count))
        for row in rows {
            var mergeRequest = try await session.reader.send(
                try MergeRequestShowCommand(repository: row.repo, number: row.number))
            mergeRequest.updatedAt = row.updatedAt
            session.repositories[row.repo]?.mergeRequests.append(
                MergeRequestRecord(mergeRequest: mergeRequest, known: Set(ReadNeed.allCases)))
        }
        session.note("merge request details: mr show", requests: rows.count)
        for path in paths {
            session.repositories[path]?.mergeRequests.sort { $0.mergeRequest.number > $1.mergeRequest.number }
        }
    }

    /// `mr show`, and the repository's open merge requests when a condition consults them (a
    /// stack's parent), listed once per repository for the run.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in session: inout ReadSession
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        var repository = RepositoryState(path: path)
        if !needs.isDisjoint(with: [.openMergeRequests, .allMergeRequests]) {
            if !session.repository(path).known.contains(.openMergeRequests) {
                let rows = try await session.reader.all(try MergeRequestListCommand(repository: path, state: .open))
                session.repositories[path, default: RepositoryState(path: path)].mergeRequests = rows.map {
                    MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: [])
                }
                session.repositories[path]?.known.insert(.openMergeRequests)
            }
            repository.mergeRequests = session.repository(path).mergeRequests
            // As when planning: the open ones answer for all, since a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
        }
        var mergeRequest = try await session.reader.send(
            try MergeRequestShowCommand(repository: path, number: item.number))
        mergeRequest.updatedAt = Comment.lastActivity(planned: item.updatedAt, comments: mergeRequest.comments)
        return (
            .mergeRequest(
                MergeRequestRecord(mergeRequest: mergeRequest, known: [.detail, .freshDetail, .labels, .activity])),
            repository
        )
    }
}
