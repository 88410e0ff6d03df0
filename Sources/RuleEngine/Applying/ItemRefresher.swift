import Foundation
import GitbayKit

/// Reads one planned item again, fresh, with what its conditions and actions consult.
///
/// Repository-wide facts (the tracking issue, branch tips, open merge requests, builds) are read
/// once per repository and kept for the rest of the run, and only when the entry's conditions and
/// actions consult them: a fact it did not read is never marked as known.
struct ItemRefresher {
    let registry: PluginRegistry
    let reader: any ForgeReader
    private var session: ReadSession
    private var dependencies: [RepositoryPath: DependencyStatus] = [:]
    private var openMergeRequests: [RepositoryPath: [MergeRequestRecord]] = [:]
    private var buildRepositories: Set<RepositoryPath> = []

    init(registry: PluginRegistry, reader: any ForgeReader) {
        self.registry = registry
        self.reader = reader
        session = ReadSession(registry: registry, reader: reader)
    }

    /// The item as it is now, or `nil` when it is gone from the forge.
    mutating func context(for entry: PlanEntry, me: String, now: Date) async throws -> ItemContext? {
        let path = try RepositoryPath(entry.item.repository)
        let needs = entry.precondition.needs(registry: registry, kind: entry.item.kind)
        var repository = RepositoryState(path: path)
        if !needs.isDisjoint(with: [.openMergeRequests, .allMergeRequests]) && entry.item.kind != .builds {
            if openMergeRequests[path] == nil {
                let rows = try await reader.all(try MergeRequestListCommand(repository: path, state: .open))
                openMergeRequests[path] = rows.map {
                    MergeRequestRecord(mergeRequest: MergeRequest(row: $0), known: [])
                }
            }
            repository.mergeRequests = openMergeRequests[path] ?? []
            // As when planning: the open ones answer for all, since a parent not listed open has merged.
            repository.known.formUnion([.openMergeRequests, .allMergeRequests])
        }
        let item: Item
        switch entry.item.kind {
        case .issues:
            var issue = try await reader.send(try IssueShowCommand(repository: path, number: entry.item.number))
            issue.updatedAt = Self.lastActivity(planned: entry.item.updatedAt, comments: issue.comments)
            item = .issue(IssueRecord(issue: issue, known: [.detail, .labels, .activity]))
            if needs.contains(.dependencies) {
                if dependencies[path] == nil {
                    dependencies[path] = try await reader.send(RepoDepsStatusCommand(repository: path))
                }
                repository.dependencies = dependencies[path]
                repository.known.insert(.dependencies)
            }
        case .mergeRequests:
            var mergeRequest = try await reader.send(
                try MergeRequestShowCommand(repository: path, number: entry.item.number))
            mergeRequest.updatedAt = Self.lastActivity(planned: entry.item.updatedAt, comments: mergeRequest.comments)
            item = .mergeRequest(
                MergeRequestRecord(mergeRequest: mergeRequest, known: [.detail, .labels, .activity]))
        case .builds:
            if !buildRepositories.contains(path) {
                _ = try await session.readBuildRepository(path, activeOnly: false, statuses: [])
                buildRepositories.insert(path)
            }
            repository = session.repository(path)
            guard let build = repository.builds.first(where: { $0.number == entry.item.number }) else {
                return nil
            }
            item = .build(build)
        }
        return ItemContext(item: item, repository: repository, now: now, me: me)
    }

    /// Forgets what was read of a repository's builds, so the next context reads them afresh
    /// (after a write to one of them whose outcome is unknown).
    mutating func forgetBuilds(of path: String) {
        if let path = try? RepositoryPath(path) {
            buildRepositories.remove(path)
            session.repositories[path] = nil
        }
    }

    /// `issue show` has no `updated_at`: the planned one, moved forward by any comment since.
    static func lastActivity(planned: Date?, comments: [Comment]) -> Date? {
        let newestComment = comments.filter { !$0.isSystem }.map(\.createdAt).max()
        switch (planned, newestComment) {
        case (let planned?, let comment?): return max(planned, comment)
        case (let planned?, nil): return planned
        case (nil, let comment): return comment
        }
    }
}
