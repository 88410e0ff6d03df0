import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Reads issues: one `issue list --q` across the rules' scope (which carries `updated_at`),
/// label membership through `label:` terms, `issue show` for details, and `repo deps status`
/// for the tracking issue.
struct IssueReader: ItemKindDefinition {
    var kind: ItemKind { .issues }
    var noun: String { "issue" }
    var referenceSeparator: String { "#" }
    var detailStep: String { "issue details: issue show for undecided or matching issues" }

    /// An issue event touches its issue; merge request, push and build events touch none.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        switch event.family {
        case "issue": return event.number.map { .item($0) } ?? .wholeRepository
        case "mr", "push", "status", "build": return .none
        default: return .wholeRepository
        }
    }

    func othersActed(on item: Item, since date: Date, me: String) -> Bool {
        guard let record = item.box(as: IssueRecord.self)?.record else { return false }
        return Comment.othersActed(in: record.issue.comments, since: date, me: me)
    }

    func list(_ rules: [Rule], into session: inout ReadSession) async throws {
        let scope = session.scope(of: rules)
        var query = "\(scope) is:issue"
        if let states = session.selected(rules, kind: kind), states.count == 1, let state = states.first {
            query += " is:\(state)"
        }
        let rows = try await session.reader.all(try IssueQueryCommand(query: query))
        session.note("issues: issue list --q \"\(query)\"", requests: session.pages(rows.count))
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
            var repository = session.repository(path)
            repository.issues += listed[path] ?? []
            session.repositories[path] = repository
        }
        // The query spans archived repositories too; learn which they are (one listing, shared
        // with the other kinds) so that evaluation leaves them alone.
        if scope.terms.contains(where: { term in
            if case .repository(let pattern) = term { return pattern.contains("*") }
            return true
        }) {
            _ = try await session.repositories(in: scope)
            for path in session.archivedRepositories where session.repositories[path] != nil {
                session.repositories[path]?.archived = true
            }
        }
        try await readLabels(rules, query: query, into: &session)
        let needs = session.conditionNeeds(rules, kind: kind)
        if needs.contains(.dependencies) {
            let paths = session.repositories.keys.filter { path in
                !(session.repositories[path]?.issues.isEmpty ?? true)
            }.sorted()
            for path in paths {
                let status = try await session.reader.send(RepoDepsStatusCommand(repository: path))
                session.repositories[path]?.dependencies = status
                session.repositories[path]?.known.insert(.dependencies)
            }
            session.note("dependency tracking issues: repo deps status", requests: paths.count)
        }
    }

    /// Learns which listed issues carry each label the rules name, one `label:` query each, unless
    /// a template prints a whole label set, which only `issue show` gives.
    private func readLabels(_ rules: [Rule], query: String, into session: inout ReadSession) async throws {
        let labels = session.namedLabels(rules)
        guard !labels.isEmpty, !session.printsLabels(rules) else { return }
        var requests = 0
        var carried: [RepositoryPath: [Int: [String]]] = [:]
        for label in labels.sorted() {
            let labelled = try await session.reader.all(
                try IssueQueryCommand(query: "\(query) label:\(ReadSession.quoted(label))"))
            requests += session.pages(labelled.count)
            for row in labelled {
                carried[row.repo, default: [:]][row.number, default: []].append(label)
            }
        }
        for (path, var repository) in session.repositories {
            var issues = repository.issues
            let labelled = carried[path] ?? [:]
            for index in issues.indices {
                issues[index].issue.labels = (issues[index].issue.labels + (labelled[issues[index].number] ?? []))
                    .sorted()
                issues[index].known.insert(.labels)
            }
            repository.issues = issues
            session.repositories[path] = repository
        }
        session.note("issue labels: \(labels.count) label: queries", requests: requests)
    }

    /// Replaces a listed issue with its `issue show`, keeping the `updated_at` a query gave.
    func readDetail(of number: Int, in path: RepositoryPath, into session: inout ReadSession) async throws {
        var issue = try await session.reader.send(try IssueShowCommand(repository: path, number: number))
        guard let index = session.repositories[path]?.issues.firstIndex(where: { $0.issue.number == number })
        else { return }
        issue.updatedAt = issue.updatedAt ?? session.repositories[path]?.issues[index].issue.updatedAt
        session.repositories[path]?.issues[index].issue = issue
        session.repositories[path]?.issues[index].known.formUnion([.detail, .freshDetail, .labels])
    }

    /// One `issue list --q` across the scope (for `updated_at`), then `issue show` for each issue.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into session: inout ReadSession
    ) async throws {
        let query = "\(scope) is:issue" + (allStates ? "" : " is:open")
        let rows = try await session.reader.all(try IssueQueryCommand(query: query)).filter {
            session.repositories[$0.repo] != nil
        }
        session.note("issues: issue list --q \"\(query)\"", requests: session.pages(rows.count))
        for row in rows {
            var issue = try await session.reader.send(try IssueShowCommand(repository: row.repo, number: row.number))
            issue.updatedAt = row.updatedAt
            session.repositories[row.repo]?.issues.append(IssueRecord(issue: issue, known: Set(ReadNeed.allCases)))
        }
        session.note("issue details: issue show", requests: rows.count)
        for path in paths {
            session.repositories[path]?.issues.sort { $0.issue.number > $1.issue.number }
        }
    }

    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in session: inout ReadSession
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        var issue = try await session.reader.send(try IssueShowCommand(repository: path, number: item.number))
        issue.updatedAt = Comment.lastActivity(planned: item.updatedAt, comments: issue.comments)
        var repository = RepositoryState(path: path)
        if needs.contains(.dependencies) {
            if !session.repository(path).known.contains(.dependencies) {
                session.repositories[path, default: RepositoryState(path: path)].dependencies =
                    try await session.reader.send(RepoDepsStatusCommand(repository: path))
                session.repositories[path]?.known.insert(.dependencies)
            }
            repository.dependencies = session.repository(path).dependencies
            repository.known.insert(.dependencies)
        }
        return (.issue(IssueRecord(issue: issue, known: [.detail, .freshDetail, .labels, .activity])), repository)
    }
}
