import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Reads issues: one `issue list --q` across the rules' scope (which carries `updated_at`),
/// label membership through `label:` terms, `issue show` for details, and `repo deps status`
/// for the tracking issue.
struct IssueReader: ItemKindDefinition, WatchedKind, CommentedKind {
    var kind: ItemKind { .issues }
    var noun: String { "issue" }
    var referenceSeparator: String { "#" }
    var detailStep: String { "issue details: issue show for undecided or matching issues" }

    /// Merge requests, pushes, statuses and builds never change an issue; a family gitbay adds
    /// later might.
    func watches(family: String) -> Bool {
        !["mr", "push", "status", "build"].contains(family)
    }

    /// An issue event touches its issue; merge request, push and build events touch none.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        guard watches(family: event.family) else { return .none }
        guard event.family == "issue" else { return .wholeRepository }
        return event.number.map { .item($0) } ?? .wholeRepository
    }

    func comments(of item: Item) -> [Comment] {
        item.box(as: IssueRecord.self)?.record.issue.comments ?? []
    }

    func author(of item: Item) -> String? {
        item.box(as: IssueRecord.self)?.record.issue.author
    }

    /// A comment moves an issue's `updated_at`, the version its cached detail is kept under.
    var commandNeeds: Set<ReadNeed> { [.detail] }

    /// An issue not updated since `date` has no comment since (`store/issues.go` `AddIssueComment`).
    func mayHoldComments(_ item: Item, since date: Date) -> Bool {
        item.updatedAt.map { $0 >= date } ?? true
    }

    /// Recorded with the item's number for every comment (docs/gitbay/protocol.md#feed, `internal/control/thread.go` `runComment`).
    var commentEvent: String { "issue.commented" }

    func acknowledgement(of id: Int) -> (action: String, argument: [String: String]) {
        SharedActions.acknowledgement(of: id)
    }

    var reply: String { "comment" }

    func commentIDs(in collection: any ItemCollection) -> [Int] {
        ((collection as? Records<IssueRecord>)?.all ?? []).flatMap { $0.issue.comments.compactMap(\.id) }
    }

    func numberingComments(in collection: any ItemCollection, from next: inout Int) -> any ItemCollection {
        guard let records = collection as? Records<IssueRecord> else { return collection }
        var numbered = records.all
        for index in numbered.indices {
            numbered[index].issue.comments = SharedActions.numbering(numbered[index].issue.comments, from: &next)
        }
        return Records(numbered)
    }

    func acknowledges(_ argv: [String], comment id: Int) -> Bool {
        SharedActions.acknowledges(argv, family: "issue", comment: id)
    }

    func othersActed(in context: ItemContext, since date: Date) -> Bool {
        guard let record = context.item.box(as: IssueRecord.self)?.record else { return false }
        return Comment.othersActed(in: record.issue.comments, since: date, context: context)
    }

    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        let scope = context.scope(of: rules)
        var query = "\(scope) is:issue"
        if let states = context.selected(rules, kind: kind), states.count == 1, let state = states.first {
            query += " is:\(state)"
        }
        let rows = try await context.reader.all(try IssueQueryCommand(query: query))
        context.note("issues: issue list --q \"\(query)\"", requests: context.pages(rows.count))
        // Gathered per repository and stored once: the records live behind the repository's
        // collection, which a store per row would copy whole.
        var listed: [RepositoryPath: [IssueRecord]] = [:]
        var order: [RepositoryPath] = []
        for row in rows {
            let issue = Issue(
                number: row.number, title: row.title, state: row.issueState, author: row.author,
                milestone: row.milestone, createdAt: row.createdAt, updatedAt: row.updatedAt)
            if listed[row.repo] == nil { order.append(row.repo) }
            listed[row.repo, default: []].append(IssueRecord(issue: issue, known: [.activity]))
        }
        for path in order {
            var repository = context.repository(path)
            repository.issues += listed[path] ?? []
            context.store(repository)
        }
        // The query spans archived repositories too; learn which they are (one listing, shared
        // with the other kinds) so that evaluation leaves them alone.
        if scope.terms.contains(where: { term in
            if case .repository(let pattern) = term { return pattern.contains("*") }
            return true
        }) {
            _ = try await context.repositories(in: scope)
            for path in context.archivedRepositories where context.repositories[path] != nil {
                context.update(path) { $0.archived = true }
            }
        }
        // The dependency checker's state (`tracking_issue`) is read later, by the engine, for the
        // repositories where an issue may still match once the rest is known.
        try await readLabels(rules, query: query, into: &context)
    }

    /// Learns which listed issues carry each label the rules name, one `label:` query each, unless
    /// a template prints a whole label set, which only `issue show` gives.
    private func readLabels(_ rules: [Rule], query: String, into context: inout ReadContext) async throws {
        let labels = context.namedLabels(rules)
        guard !labels.isEmpty, !context.printsLabels(rules) else { return }
        var requests = 0
        var carried: [RepositoryPath: [Int: [String]]] = [:]
        for label in labels.sorted() {
            let labelled = try await context.reader.all(
                try IssueQueryCommand(query: "\(query) label:\(ReadContext.quoted(label))"))
            requests += context.pages(labelled.count)
            for row in labelled {
                carried[row.repo, default: [:]][row.number, default: []].append(label)
            }
        }
        for (path, var repository) in context.repositories {
            var issues = repository.issues
            let labelled = carried[path] ?? [:]
            for index in issues.indices {
                issues[index].issue.labels = (issues[index].issue.labels + (labelled[issues[index].number] ?? []))
                    .sorted()
                issues[index].known.insert(.labels)
            }
            repository.issues = issues
            context.store(repository)
        }
        context.note("issue labels: \(labels.count) label: queries", requests: requests)
    }

    /// Replaces a listed issue with its `issue show`, keeping the `updated_at` a query gave.
    func readDetail(of number: Int, in path: RepositoryPath, into context: inout ReadContext) async throws {
        var issue = try await context.reader.send(try IssueShowCommand(repository: path, number: number))
        guard let index = context.repositories[path]?.issues.firstIndex(where: { $0.issue.number == number })
        else { return }
        issue.updatedAt = issue.updatedAt ?? context.repositories[path]?.issues[index].issue.updatedAt
        context.update(path) { repository in
            repository.issues[index].issue = issue
            repository.issues[index].known.formUnion([.detail, .freshDetail, .labels])
        }
    }

    /// The issue's `issue show`; one the listing left out (a closed issue under rules that read
    /// open ones) is put among its repository's issues, with the `updated_at` only a query's rows
    /// carry (its own repository, state and author narrow that query to a page) and the
    /// repository's dependency status when a condition consults it and the listing did not read it.
    func readWhole(_ item: ItemReference, needs: Set<ReadNeed>, into context: inout ReadContext) async throws {
        let path = item.repository
        guard !context.repository(path).issues.contains(where: { $0.number == item.number }) else {
            try await readDetail(of: item.number, in: path, into: &context)
            return
        }
        var issue = try await context.reader.send(try IssueShowCommand(repository: path, number: item.number))
        var known: Set<ReadNeed> = [.detail, .freshDetail, .labels]
        if needs.contains(.activity) {
            let query = "repo:\(path) is:issue is:\(issue.state.rawValue) author:\(issue.author)"
            let rows = try await context.reader.all(try IssueQueryCommand(query: query))
            context.note("issue activity: issue list --q \"\(query)\"", requests: context.pages(rows.count))
            if let row = rows.first(where: { $0.repo == path && $0.number == item.number }) {
                issue.updatedAt = row.updatedAt
                known.insert(.activity)
            }
        }
        if needs.contains(.dependencies), !context.repository(path).known.contains(.dependencies) {
            let status = try await context.reader.send(RepoDepsStatusCommand(repository: path))
            context.update(path) { repository in
                repository.dependencies = status
                repository.known.insert(.dependencies)
            }
        }
        context.update(path) { $0.issues.append(IssueRecord(issue: issue, known: known)) }
    }

    /// One `issue list --q` across the scope (for `updated_at`), then `issue show` for each issue.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {
        let query = "\(scope) is:issue" + (allStates ? "" : " is:open")
        let rows = try await context.reader.all(try IssueQueryCommand(query: query)).filter {
            context.repositories[$0.repo] != nil
        }
        context.note("issues: issue list --q \"\(query)\"", requests: context.pages(rows.count))
        for row in rows {
            var issue = try await context.reader.send(try IssueShowCommand(repository: row.repo, number: row.number))
            issue.updatedAt = row.updatedAt
            context.update(row.repo) { $0.issues.append(IssueRecord(issue: issue, known: Set(ReadNeed.item))) }
        }
        context.note("issue details: issue show", requests: rows.count)
        for path in paths {
            context.update(path) { $0.issues.sort { $0.issue.number > $1.issue.number } }
        }
    }

    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        var issue = try await context.reader.send(try IssueShowCommand(repository: path, number: item.number))
        issue.updatedAt = Comment.lastActivity(planned: item.updatedAt, comments: issue.comments)
        var repository = RepositoryState(path: path)
        if needs.contains(.dependencies) {
            if !context.repository(path).known.contains(.dependencies) {
                let status = try await context.reader.send(RepoDepsStatusCommand(repository: path))
                context.update(path) { repository in
                    repository.dependencies = status
                    repository.known.insert(.dependencies)
                }
            }
            repository.dependencies = context.repository(path).dependencies
            repository.known.insert(.dependencies)
        }
        return (.issue(IssueRecord(issue: issue, known: [.detail, .freshDetail, .labels, .activity])), repository)
    }
}
