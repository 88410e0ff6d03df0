import Foundation
import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// Reads builds: per repository, its default branch, branch and tag tips, open merge requests and
/// the builds the rules can judge (every pending or running one and those newer, which is what
/// `superseded` compares with; without a status filter, the newest page).
struct BuildReader: ItemKindDefinition, WatchedKind {
    var kind: ItemKind { .builds }
    var noun: String { "build" }
    var referenceSeparator: String { "/builds/" }
    /// Build rows are complete: there is no detail read.
    var detailStep: String { "build details" }

    /// Anything but an issue may supersede or start a build.
    func watches(family: String) -> Bool {
        family != "issue"
    }

    /// A push, a status, a build's end or a merge request's change (its head, its merge) can make
    /// any build of the repository superseded or unprotected; an issue cannot, nor what is said
    /// on a merge request or done to its labels, milestone and reviewers, which move no head,
    /// branch or build.
    func watchEffect(of event: FeedEvent) -> WatchEffect {
        let conversation = ["mr.commented", "mr.reviewed", "mr.labeled", "mr.milestoned", "mr.review_requested"]
        return watches(family: event.family) && !conversation.contains(event.kind) ? .wholeRepository : .none
    }

    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        let scope = context.scope(of: rules)
        let statuses = context.selected(rules, kind: kind)
        let activeOnly = statuses.map { !$0.isEmpty && $0.isSubset(of: ["pending", "running"]) } ?? false
        let paths = try await context.repositories(in: scope)
        // A push supersedes builds, and only open merge requests' rows show one.
        try await context.look(with: OpenMergeRequestProbe(), in: scope)
        let swept = await context.sweep(
            paths, of: kind, entry: Self.copyEntry, format: Self.copyFormat, as: BuildCopy.self)
        for (path, copy) in swept.kept {
            context.update(path) { copy.restore(into: &$0) }
        }
        var requests = 0
        for path in swept.read {
            let copy = swept.copies[path]
            guard context.mayRead(path, in: swept) else {
                if let copy { context.update(path) { copy.restore(into: &$0) } }
                continue
            }
            // A change an event or a row told of moves builds and tips, not the default branch,
            // which the sweep's own reads (and every re-read before a cancel) ask afresh.
            let known =
                swept.reasons[path] == .changed && context.isFresh(copy?.defaultBranchRead)
                ? copy.flatMap { copy in copy.defaultBranch.map { ($0, copy.defaultBranchRead) } } : nil
            requests += try await readRepository(
                path, activeOnly: activeOnly, statuses: statuses ?? [], watermark: activeOnly ? copy?.watermark : nil,
                defaultBranch: known, into: &context)
        }
        context.note(
            activeOnly
                ? "builds: pending/running builds with the newer ones above them per repository read, and repo show, "
                    + "repo refs and open merge requests where there is one"
                : "builds: repo show, repo refs, open merge requests and the newest 200 builds per repository read",
            requests: requests)
    }

    /// The newest page of `build list` per repository.
    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {
        for path in paths {
            let builds = try await context.reader.send(try BuildListCommand(repository: path)).items
            context.update(path) { $0.builds = builds.sorted { $0.number > $1.number } }
        }
        context.note("builds: build list", requests: paths.count)
    }

    /// The repository's build facts read afresh (once per repository for the run), and the build
    /// among them; `nil` when it is not there any more.
    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        let path = try RepositoryPath(item.repository)
        if !context.repository(path).known.contains(.refs) {
            _ = try await readRepository(
                path, activeOnly: false, statuses: [], watermark: nil, defaultBranch: nil, into: &context)
        }
        var repository = context.repository(path)
        // A build older than the newest page (a pending one a queue left behind) is read down to,
        // with every build above it, which is what its supersession is judged by; before, it read
        // as gone, and each run planned it again, spending --max-actions on it.
        if !repository.builds.contains(where: { $0.number == item.number }),
            let lowest = repository.builds.map(\.number).min(), lowest > item.number
        {
            let (older, _) = try await Self.builds(of: path, downTo: item.number, reader: context.reader)
            let known = Set(repository.builds.map(\.number))
            repository.builds += older.filter { !known.contains($0.number) }
            repository.builds.sort { $0.number > $1.number }
            context.store(repository)
        }
        guard let build = repository.builds.first(where: { $0.number == item.number }) else { return nil }
        return (.build(build), repository)
    }

    /// Reads what build rules consult in one repository: its default branch, branch and tag tips,
    /// open merge requests and builds, from `watermark` up when one is known and with
    /// `defaultBranch` when the copy's still holds; keeps what it read as the repository's copy
    /// for the sweep; returns the requests spent.
    private func readRepository(
        _ path: RepositoryPath, activeOnly: Bool, statuses: Set<String>, watermark: Int?,
        defaultBranch known: (name: String, read: Date?)?, into context: inout ReadContext
    ) async throws -> Int {
        var requests = 0
        var repository = context.repository(path)
        let (builds, used) =
            if let watermark {
                try await self.builds(of: path, from: watermark, reader: context.reader)
            } else {
                try await self.builds(of: path, activeOnly: activeOnly, statuses: statuses, context: context)
            }
        repository.builds = builds ?? []
        if builds == nil {
            // The watermark no longer holds (fewer builds than it knew: the repository was made
            // anew); read as without one.
            let (fresh, more) = try await self.builds(of: path, activeOnly: true, statuses: statuses, context: context)
            repository.builds = fresh ?? []
            requests += more
        }
        // What supersedes or protects a build (the default branch, the tips, the open merge
        // requests' heads) is asked only when a build may still be acted on: where every rule
        // wants pending or running builds and the repository has none, no rule can act there,
        // and the three reads are saved (54 of 100 repositories of a generated forge had one).
        if !activeOnly || repository.builds.contains(where: { $0.status == .pending || $0.status == .running }) {
            requests += try await readSurroundings(
                path, defaultBranch: known?.name, into: &repository, context: context)
        }
        context.store(repository)
        // A read by status saw every build that may change only when it asked for both.
        let sawEveryActive = watermark != nil || statuses == ["pending", "running"]
        let copy = BuildCopy(
            of: repository, watermark: activeOnly && sawEveryActive ? Self.watermark(after: repository.builds) : nil,
            defaultBranchRead: known.map(\.read) ?? context.sweepTime)
        context.keepCopy(copy, of: path, kind: kind, entry: Self.copyEntry, format: Self.copyFormat)
        return requests + used
    }

    /// Reads the repository's default branch (unless given), its branch and tag tips and (unless
    /// known) its open merge requests into `repository`; returns the requests spent.
    private func readSurroundings(
        _ path: RepositoryPath, defaultBranch: String?, into repository: inout RepositoryState, context: ReadContext
    ) async throws -> Int {
        var requests = 1
        if let defaultBranch {
            repository.defaultBranch = defaultBranch
        } else {
            repository.defaultBranch = try await context.reader.send(RepoShowCommand(repository: path)).defaultBranch
            requests += 1
        }
        repository.refs = try await context.reader.send(RepoRefsCommand(repository: path))
        if !repository.known.contains(.openMergeRequests) {
            let open = try await context.reader.all(try MergeRequestListCommand(repository: path, state: .open))
            requests += context.pages(open.count)
            repository.mergeRequests = MergeRequestRecord.merging(
                open.map { MergeRequest(row: $0) }, into: repository.mergeRequests)
            repository.known.insert(.openMergeRequests)
        }
        repository.known.insert(.refs)
        return requests
    }

    /// The name and format of the copy the read cache keeps per repository (``BuildCopy``); the
    /// item is the one format 1, the watermark alone, had.
    static let copyEntry = "builds"
    static let copyFormat = 2

    /// The watermark after a read that saw `builds` (every pending or running one and all newer):
    /// the oldest still pending or running, else one past the newest; `nil` when none was read.
    private static func watermark(after builds: [Build]) -> Int? {
        let active = builds.filter { $0.status == .pending || $0.status == .running }.map(\.number)
        if let oldest = active.min() { return oldest }
        return builds.map(\.number).max().map { $0 + 1 }
    }

    /// The builds from `watermark` up, newest first, page by page.
    ///
    /// They are all that may have changed since the last read, every pending or running one among
    /// them; `nil` when the newest build is below what the watermark knew.
    private func builds(
        of path: RepositoryPath, from watermark: Int, reader: any ForgeReader
    ) async throws -> (
        [Build]?, Int
    ) {
        var requests = 0
        var builds: [Build] = []
        var command = try BuildListCommand(repository: path)
        while true {
            let page = try await reader.send(command)
            requests += 1
            if requests == 1, let newest = page.items.first?.number, newest < watermark - 1 {
                return (nil, requests)
            }
            builds += page.items.filter { $0.number >= watermark }
            guard let next = page.next, let last = page.items.last, last.number > watermark else { break }
            command.cursor = next
        }
        return (builds, requests)
    }

    /// The builds the rules can judge: every pending or running one and every newer build, or,
    /// without a status filter, the newest page.
    private func builds(
        of path: RepositoryPath, activeOnly: Bool, statuses: Set<String>, context: ReadContext
    ) async throws -> ([Build]?, Int) {
        let reader = context.reader
        guard activeOnly else {
            return (try await reader.send(try BuildListCommand(repository: path)).items, 1)
        }
        var requests = 0
        var active: [Build] = []
        for status in statuses.sorted() {
            let rows = try await reader.all(
                try BuildListCommand(repository: path, status: BuildStatus(rawValue: status)))
            requests += context.pages(rows.count)
            active += rows
        }
        guard let oldest = active.map(\.number).min() else { return ([], requests) }
        let (newer, pages) = try await Self.builds(of: path, downTo: oldest, reader: reader)
        requests += pages
        var byNumber: [Int: Build] = [:]
        for build in active + newer { byNumber[build.number] = build }
        return (byNumber.values.sorted { $0.number > $1.number }, requests)
    }

    /// Every build numbered `oldest` or above, newest first, paging `build list` down to it; with
    /// the requests it took.
    private static func builds(
        of path: RepositoryPath, downTo oldest: Int, reader: any ForgeReader
    ) async throws -> ([Build], Int) {
        var builds: [Build] = []
        var requests = 0
        var command = try BuildListCommand(repository: path)
        while true {
            let page = try await reader.send(command)
            requests += 1
            builds += page.items.filter { $0.number >= oldest }
            guard let next = page.next, let last = page.items.last, last.number > oldest else { break }
            command.cursor = next
        }
        return (builds, requests)
    }
}
