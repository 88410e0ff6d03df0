import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Reads merge requests: one `mr list --q` across the scope (open only when every rule requires
/// it), and `mr show` for details.
struct MergeRequestReader: ItemKindDefinition, WatchedKind, CommentedKind {
    var kind: ItemKind { .mergeRequests }
    var noun: String { "merge request" }
    var referenceSeparator: String { "!" }
    var detailStep: String { "merge request details: mr show for undecided or matching merge requests" }

    /// Anything but an issue may move a merge request or what it is stacked on.
    func watches(family: String) -> Bool {
        family != "issue"
    }

    /// A merge request event touches its merge request; a merge or a close, every one of the repository.
    ///
    /// gitbay retargets what was stacked on the merged one without an event of its own. A push
    /// moves heads and a status or build moves checks, of merge requests the event does not name.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        guard watches(family: event.family) else { return .none }
        guard event.family == "mr", let number = event.number, event.kind != "mr.merged", event.kind != "mr.closed"
        else { return .wholeRepository }
        return .item(number)
    }

    func comments(of item: Item) -> [Comment] {
        item.box(as: MergeRequestRecord.self)?.record.mergeRequest.comments ?? []
    }

    func author(of item: Item) -> String? {
        item.box(as: MergeRequestRecord.self)?.record.mergeRequest.author
    }

    /// A comment leaves a merge request's `updated_at` alone (`store/mrs.go` `AddMRComment`), so
    /// only a fresh detail shows every comment.
    var commandNeeds: Set<ReadNeed> { [.detail, .freshDetail] }

    /// The listing cannot tell: a comment moves no field of the row.
    func mayHoldComments(_ item: Item, since date: Date) -> Bool {
        true
    }

    /// Recorded with the item's number for every comment (docs/gitbay/protocol.md#feed, `internal/control/thread.go` `runComment`).
    var commentEvent: String { "mr.commented" }

    func acknowledgement(of id: Int) -> (action: String, argument: [String: String]) {
        SharedActions.acknowledgement(of: id)
    }

    var reply: String { "comment" }

    func commentIDs(in collection: any ItemCollection) -> [Int] {
        ((collection as? Records<MergeRequestRecord>)?.all ?? []).flatMap { $0.mergeRequest.comments.compactMap(\.id) }
    }

    func numberingComments(in collection: any ItemCollection, from next: inout Int) -> any ItemCollection {
        guard let records = collection as? Records<MergeRequestRecord> else { return collection }
        var numbered = records.all
        for index in numbered.indices {
            numbered[index].mergeRequest.comments = SharedActions.numbering(
                numbered[index].mergeRequest.comments, from: &next)
        }
        return Records(numbered)
    }

    func acknowledges(_ argv: [String], comment id: Int) -> Bool {
        SharedActions.acknowledges(argv, family: "mr", comment: id)
    }

    func othersActed(in context: ItemContext, since date: Date) -> Bool {
        guard let record = context.item.box(as: MergeRequestRecord.self)?.record else { return false }
        return Comment.othersActed(in: record.mergeRequest.comments, since: date, context: context)
    }

    /// Lists every merge request of the scope with one `mr list --q`, not a list per repository.
    ///
    /// Its rows give each one's state, draft flag, author, milestone and `updated_at`, which is
    /// also the version a cached detail is checked against. What only `mr show` tells (the source, target and head, the stack) is a detail:
    /// read for the merge requests a rule still needs it of, from the cache while the version
    /// holds. The open ones listed answer for every merge request a stack may sit on (a parent not
    /// listed open has merged); they carry no heads, so builds read a repository's open merge
    /// requests themselves where a build may be cancelled.
    ///
    /// A moved `updated_at` (a push moves it, which the feed never shows) is what tells the sweep
    /// to read a repository's builds again (``RepositorySweep``).
    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        let scope = context.scope(of: rules)
        let openOnly = context.selected(rules, kind: kind) == ["open"]
        let paths = try await context.repositories(in: scope)
        var query = "\(scope) is:mr"
        if openOnly { query += " is:open" }
        let listed = Set(paths)
        let all: [QueryItem]
        let requests: Int
        if openOnly {
            (all, requests) = try await context.openMergeRequests(in: scope)
        } else {
            all = try await context.reader.all(try MergeRequestQueryCommand(query: query))
            requests = context.pages(all.count)
        }
        let rows = all.filter { listed.contains($0.repo) }
        context.note("merge requests: mr list --q \"\(query)\"", requests: requests)
        // Every open merge request's row is among them, so they are the probe's look too.
        context.saw(rows.map(OpenMergeRequestProbe.event), covering: OpenMergeRequestProbe(), in: scope)
        var byRepository: [RepositoryPath: [MergeRequestRecord]] = [:]
        for row in rows {
            byRepository[row.repo, default: []].append(
                MergeRequestRecord(mergeRequest: MergeRequest(listed: row), known: [.activity]))
        }
        for path in paths {
            context.update(path) { repository in
                repository.mergeRequests = (byRepository[path] ?? []).sorted { $0.number > $1.number }
                repository.known.insert(.allMergeRequests)
            }
        }
    }

    /// Replaces a listed merge request with its `mr show`, keeping the `updated_at` a query gave.
    func readDetail(of number: Int, in path: RepositoryPath, into context: inout ReadContext) async throws {
        var mergeRequest = try await context.reader.send(
            try MergeRequestShowCommand(repository: path, number: number))
        guard
            let index = context.repositories[path]?.mergeRequests.firstIndex(where: {
                $0.mergeRequest.number == number
            })
        else { return }
        mergeRequest.updatedAt =
            mergeRequest.updatedAt ?? context.repositories[path]?.mergeRequests[index].mergeRequest.updatedAt
        context.update(path) { repository in
            repository.mergeRequests[index].mergeRequest = mergeRequest
            repository.mergeRequests[index].known.formUnion([.detail, .freshDetail, .labels])
        }
    }

    /// `status list` of the head as read, for whether a status the bot set still says the same,
    /// and `mr revisions`, for which head a `/merge` was given on.
    func readBeyondDetail(
        _ needs: Set<ReadNeed>, of number: Int, in path: RepositoryPath, into context: inout ReadContext
    ) async throws {
        guard !needs.isDisjoint(with: [.statuses, .revisions]),
            let index = context.repositories[path]?.mergeRequests.firstIndex(where: {
                $0.mergeRequest.number == number
            }),
            var record = context.repositories[path]?.mergeRequests[index]
        else { return }
        try await Self.readBeyondDetail(needs, of: &record, in: path, reader: context.reader)
        context.update(path) { repository in repository.mergeRequests[index] = record }
    }

    /// Reads into `record` what of `needs` lies beyond its detail: the head's statuses, its revisions.
    private static func readBeyondDetail(
        _ needs: Set<ReadNeed>, of record: inout MergeRequestRecord, in path: RepositoryPath, reader: any ForgeReader
    ) async throws {
        if needs.contains(.statuses) {
            record.headStatuses = try await reader.send(
                try StatusListCommand(repository: path, sha: record.mergeRequest.headSHA))
            record.known.insert(.statuses)
        }
        if needs.contains(.revisions) {
            record.revisions = try await reader.send(
                try MergeRequestRevisionsCommand(repository: path, number: record.number))
            record.known.insert(.revisions)
        }
    }

    /// The merge request's `mr show`; one the listing left out (a merged one under rules that read
    /// open ones) is put among its repository's merge requests, with the `updated_at` only a
    /// query's rows carry when a condition consults it (its own repository, state and author
    /// narrow that query to a page).
    func readWhole(_ item: ItemReference, needs: Set<ReadNeed>, into context: inout ReadContext) async throws {
        let path = item.repository
        guard !context.repository(path).mergeRequests.contains(where: { $0.mergeRequest.number == item.number })
        else {
            try await readDetail(of: item.number, in: path, into: &context)
            return
        }
        var mergeRequest = try await context.reader.send(
            try MergeRequestShowCommand(repository: path, number: item.number))
        var known: Set<ReadNeed> = [.detail, .freshDetail, .labels]
        if needs.contains(.activity) {
            // `is:` knows open, closed and merged; a merge request whose source is gone is found without it.
            let state =
                [.open, .closed, .merged].contains(mergeRequest.state) ? " is:\(mergeRequest.state.rawValue)" : ""
            let query = "repo:\(path) is:mr\(state) author:\(mergeRequest.author)"
            let rows = try await context.reader.all(try MergeRequestQueryCommand(query: query))
            context.note("merge request activity: mr list --q \"\(query)\"", requests: context.pages(rows.count))
            if let row = rows.first(where: { $0.repo == path && $0.number == item.number }) {
                mergeRequest.updatedAt = row.updatedAt
                known.insert(.activity)
            }
        }
        context.update(path) { $0.mergeRequests.append(MergeRequestRecord(mergeRequest: mergeRequest, known: known)) }
    }

    /// One `mr list --q` across the scope (for `updated_at`), then `mr show` for each, and for each
    /// open one `status list` of its head and `mr revisions`: the statuses with their descriptions
    /// (without which an offline plan sets again a status the head already has) and the heads a
    /// `/merge` is bound to (without which it takes every command for one given on the current head).
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {
        let query = "\(scope) is:mr" + (allStates ? "" : " is:open")
        let rows = try await context.reader.all(try MergeRequestQueryCommand(query: query)).filter {
            context.repositories[$0.repo] != nil
        }
        context.note("merge requests: mr list --q \"\(query)\"", requests: context.pages(rows.count))
        var open = 0
        for row in rows {
            var mergeRequest = try await context.reader.send(
                try MergeRequestShowCommand(repository: row.repo, number: row.number))
            mergeRequest.updatedAt = row.updatedAt
            var record = MergeRequestRecord(mergeRequest: mergeRequest, known: Set(ReadNeed.item))
            if mergeRequest.state == .open {
                try await Self.readBeyondDetail(
                    [.statuses, .revisions], of: &record, in: row.repo, reader: context.reader)
                open += 1
            }
            context.update(row.repo) { $0.mergeRequests.append(record) }
        }
        context.note("merge request details: mr show", requests: rows.count)
        context.note("merge request heads: status list and mr revisions of the open ones", requests: 2 * open)
        for path in paths {
            context.update(path) { $0.mergeRequests.sort { $0.mergeRequest.number > $1.mergeRequest.number } }
        }
    }

    /// `mr show`, the repository's open merge requests when a condition consults them (a stack's
    /// parent), listed once per repository for the run, and the head's statuses and revisions
    /// when an action judges by them.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        var repository = RepositoryState(path: path)
        if !needs.isDisjoint(with: [.openMergeRequests, .allMergeRequests]) {
            if !context.repository(path).known.contains(.openMergeRequests) {
                let rows = try await context.reader.all(try MergeRequestListCommand(repository: path, state: .open))
                context.update(path) { repository in
                    repository.mergeRequests = rows.map {
                        MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: [])
                    }
                    repository.known.insert(.openMergeRequests)
                }
            }
            repository.mergeRequests = context.repository(path).mergeRequests
            // As when planning: the open ones answer for all, since a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
        }
        var mergeRequest = try await context.reader.send(
            try MergeRequestShowCommand(repository: path, number: item.number))
        mergeRequest.updatedAt = Comment.lastActivity(planned: item.updatedAt, comments: mergeRequest.comments)
        var record = MergeRequestRecord(mergeRequest: mergeRequest, known: [.detail, .freshDetail, .labels, .activity])
        try await Self.readBeyondDetail(needs, of: &record, in: path, reader: context.reader)
        return (.mergeRequest(record), repository)
    }
}
