import Foundation
import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// Reads builds: per repository, its default branch, branch and tag tips, open merge requests and
/// the builds the rules can judge (every pending or running one and those newer, which is what
/// `superseded` compares with; without a status filter, the newest page).
struct BuildReader: ItemKindDefinition {
    var kind: ItemKind { .builds }
    var noun: String { "build" }
    var referenceSeparator: String { "/builds/" }
    /// Build rows are complete: there is no detail read.
    var detailStep: String { "build details" }

    func list(_ rules: [Rule], into session: inout ReadSession) async throws {
        let scope = session.scope(of: rules)
        let statuses = session.selected(rules, kind: kind)
        let activeOnly = statuses.map { !$0.isEmpty && $0.isSubset(of: ["pending", "running"]) } ?? false
        let paths = try await session.repositories(in: scope)
        var requests = 0
        for path in paths {
            requests += try await readRepository(path, activeOnly: activeOnly, statuses: statuses ?? [], into: &session)
        }
        session.note(
            "builds: repo show, repo refs, open merge requests and "
                + (activeOnly ? "pending/running builds with the newer ones above them" : "the newest 200 builds")
                + " per repository", requests: requests)
    }

    /// The newest page of `build list` per repository.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into session: inout ReadSession
    ) async throws {
        for path in paths {
            let builds = try await session.reader.send(try BuildListCommand(repository: path)).items
            session.repositories[path]?.builds = builds.sorted { $0.number > $1.number }
        }
        session.note("builds: build list", requests: paths.count)
    }

    /// The repository's build facts read afresh (once per repository for the run), and the build
    /// among them; `nil` when it is not there any more.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in session: inout ReadSession
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        if !session.repository(path).known.contains(.refs) {
            _ = try await readRepository(path, activeOnly: false, statuses: [], into: &session)
        }
        let repository = session.repository(path)
        guard let build = repository.builds.first(where: { $0.number == item.number }) else { return nil }
        return (.build(build), repository)
    }

    /// Reads what build rules consult in one repository: its default branch, branch and tag tips,
    /// open merge requests and builds; returns the requests spent.
    private func readRepository(
        _ path: RepositoryPath, activeOnly: Bool, statuses: Set<String>, into session: inout ReadSession
    ) async throws -> Int {
        var requests = 2
        var repository = session.repository(path)
        repository.defaultBranch = try await session.reader.send(RepoShowCommand(repository: path)).defaultBranch
        repository.refs = try await session.reader.send(RepoRefsCommand(repository: path))
        if !repository.known.contains(.openMergeRequests) {
            let open = try await session.reader.all(try MergeRequestListCommand(repository: path, state: .open))
            requests += session.pages(open.count)
            repository.mergeRequests += open.map { MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: []) }
            repository.known.insert(.openMergeRequests)
        }
        repository.known.insert(.refs)
        let (builds, used) = try await builds(
            of: path, activeOnly: activeOnly, statuses: statuses, reader: session.reader, session: session)
        repository.builds = builds
        session.repositories[path] = repository
        return requests + used
    }

    /// The builds the rules can judge: every pending or running one and every newer build, or,
    /// without a status filter, the newest page.
    private func builds(
        of path: RepositoryPath, activeOnly: Bool, statuses: Set<String>, reader: any ForgeReader,
        session: ReadSession
    ) async throws -> ([Build], Int) {
        guard activeOnly else {
            return (try await reader.send(try BuildListCommand(repository: path)).items, 1)
        }
        var requests = 0
        var active: [Build] = []
        for status in statuses.sorted() {
            let rows = try await reader.all(
                try BuildListCommand(repository: path, status: BuildStatus(rawValue: status)))
            requests += session.pages(rows.count)
            active += rows
        }
        guard let oldest = active.map(\.number).min() else { return ([], requests) }
        var newer: [Build] = []
        var command = try BuildListCommand(repository: path)
        while true {
            let page = try await reader.send(command)
            requests += 1
            newer += page.items.filter { $0.number >= oldest }
            guard let next = page.next, let last = page.items.last, last.number > oldest else { break }
            command.cursor = next
        }
        var byNumber: [Int: Build] = [:]
        for build in active + newer { byNumber[build.number] = build }
        return (byNumber.values.sorted { $0.number > $1.number }, requests)
    }
}
