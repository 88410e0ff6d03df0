import Foundation
import GitbayKit

/// What a kind's reads (``ItemKindReading``, ``CachedDetails``) work with: the reader, what has
/// been read of each repository so far, the repositories a scope names, what the rules ask of
/// them, the read cache, and the notes `--verbose` prints.
///
/// It is the part of a read the plugins share with the engine; what the planner alone decides
/// (which details to read, what the guards leave unread) stays in its own session, out of reach.
public struct ReadContext: Sendable {
    let registry: PluginRegistry
    public let reader: any ForgeReader
    /// What is known of each repository read so far; a plugin changes it through ``store(_:)``
    /// and ``update(_:_:)``.
    public internal(set) var repositories: [RepositoryPath: RepositoryState] = [:]
    /// What the reads took, for `--verbose`.
    var report = ReadPlanner.Report()
    private var listedRepositories: [RepositoryPath]?
    /// Archived repositories the listing showed: they refuse every write, so no rule acts on them.
    public private(set) var archivedRepositories: Set<RepositoryPath> = []
    /// Where details are kept between runs; `nil` keeps none.
    var cache: (any ReadCache)?
    /// Whether what the cache holds may stand in for a read (not with `--no-cache`, nor in a full read).
    var trustsCache = false
    /// The cache's entries of each kind, as loaded once for the read.
    var loadedCache: [ItemKind: [String: CachedDetail]] = [:]
    /// Entries plugins asked to keep beyond details (``keep(_:)``).
    var keptEntries: [CachedDetail] = []
    /// The open merge requests of each scope as one query listed them this run, by the scope's
    /// text (``openMergeRequests(in:)``).
    var openMergeRequestRows: [String: [QueryItem]] = [:]
    /// The read session's sweep bookkeeping (``SweepLedger``), reached only through the sweep's calls.
    let sweepLedger: SweepLedger

    /// A context reading through `sweep`'s reader (counted against its budget, if any); the
    /// sweep's bookkeeping stays the caller's.
    init(registry: PluginRegistry, sweep: SweepLedger) {
        self.registry = registry
        self.reader = sweep.reader
        self.sweepLedger = sweep
    }

    /// A context reading through `reader` with no sweep of its own (a re-read before a write, a snapshot).
    init(registry: PluginRegistry, reader: any ForgeReader) {
        self.init(registry: registry, sweep: SweepLedger(reader: reader))
    }

    /// Notes one kind of read and the requests it took, for `--verbose`.
    public mutating func note(_ step: String, requests: Int) {
        note("\(step) (\(requests) request\(requests == 1 ? "" : "s"))")
    }

    /// Notes a line for `--verbose` as it is.
    public mutating func note(_ line: String) {
        report.steps.append(line)
    }

    /// The requests a listing of `rows` rows took: full pages of 200, and at least one.
    public func pages(_ rows: Int) -> Int {
        ReadPlanner.pages(rows)
    }

    /// What is known of `path` so far; an empty state when nothing is.
    public func repository(_ path: RepositoryPath) -> RepositoryState {
        repositories[path] ?? RepositoryState(path: path)
    }

    /// Keeps `repository` as what is known of its path, in place of anything read before.
    public mutating func store(_ repository: RepositoryState) {
        repositories[repository.path] = repository
    }

    /// Changes what is known of `path` in place (an empty state when nothing is yet), so one item's
    /// change costs no copy of the repository's other items.
    public mutating func update(_ path: RepositoryPath, _ change: (inout RepositoryState) throws -> Void) rethrows {
        try change(&repositories[path, default: RepositoryState(path: path)])
    }

    /// The repositories a scope names: exact `repo:` terms as written, everything else by listing
    /// the repositories the account can reach (once per run).
    public mutating func repositories(in scope: RuleScope) async throws -> [RepositoryPath] {
        var exact: [RepositoryPath] = []
        var needsListing = false
        for term in scope.terms {
            if case .repository(let pattern) = term, !pattern.contains("*"), let path = try? RepositoryPath(pattern) {
                exact.append(path)
            } else {
                needsListing = true
            }
        }
        if needsListing, listedRepositories == nil {
            let rows = try await reader.all(try RepoListCommand())
            listedRepositories = rows.filter { !$0.archived }.map(\.path)
            archivedRepositories = Set(rows.filter(\.archived).map(\.path))
            note("repositories: repo list", requests: pages(rows.count))
        }
        let listed = (listedRepositories ?? []).filter { scope.contains($0) }
        return Array(Set(exact + listed)).sorted()
    }
}
