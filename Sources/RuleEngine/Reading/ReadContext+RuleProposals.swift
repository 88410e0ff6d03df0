import Foundation
import GitbayKit

extension ReadContext {
    /// The read cache's kind for the looks at open merge requests (``RuleProposal``): no plugin's.
    static let proposalsKind = ItemKind(rawValue: "rule-proposals")
    /// The cache entry, per repository, of those looks.
    static let proposalsEntry = "rules-file-changes"
    /// The most merge requests looked at in one run, the most recently updated first; the rest
    /// wait for the next runs, so a first run in an organisation with thousands of open merge
    /// requests spreads its looks instead of spending a day's reads at once.
    public static let maximumProposalLooks = 30

    /// Finds the open merge requests of `paths` (within `scope`) that change their repository's
    /// rules file, and keeps each repository's in its state (``RepositoryState/proposals``).
    ///
    /// The open merge requests of the scope with their `updated_at`, which a push moves (the feed
    /// never tells of a push), are the merge request rules' listing when there is one
    /// (``openMergeRequests(in:)``); only one updated since the kept look is looked at again:
    /// `repo tree .gitbay` at `refs/merge-requests/<n>/head`, and only when the file's object id
    /// there is not the default branch's, `mr revisions` for the head's sha and the base it was
    /// pushed on and `repo tree` at that base, so a merge request behind a change of the file on
    /// its target is not taken for one changing it; then the file (`repo cat --ref`) and its bases.
    ///
    /// The first run that keeps looks takes every merge request not updated for a day as it is,
    /// unlooked at until its next update: an organisation's thousands of open merge requests would
    /// otherwise cost weeks of runs' reads for files that seldom change. Runs after
    /// ``readRepositoryRuleFiles(in:registry:)``, whose records are the default branches' files.
    mutating func readRuleProposals(
        in paths: [RepositoryPath], scope: RuleScope, registry: PluginRegistry, now: Date
    ) async throws {
        if sweepLedger.budgetLeft == 0 {
            note("rules previews: wait for the next runs, the read budget spent")
            return
        }
        let (rows, listing) = try await openMergeRequests(in: scope)
        note("rules previews: open merge requests", requests: listing)
        let reached = Set(paths)
        let open = rows.filter { reached.contains($0.repo) }
        let byRepository = Dictionary(grouping: open, by: \.repo)
        let decoder = GitbayJSON.decoder()
        let entries = await cachedEntries(of: Self.proposalsKind)
        var looks: [RepositoryPath: [Int: RuleProposal]] = [:]
        for path in byRepository.keys {
            guard let entry = entries[Self.copyItem(path, entry: Self.proposalsEntry)], entry.format == 1,
                let kept = try? decoder.decode([RuleProposal].self, from: Data(entry.payload.utf8))
            else { continue }
            looks[path] = Dictionary(kept.map { ($0.number, $0) }) { first, _ in first }
        }
        if trustsCache, entries.isEmpty {
            let settled = open.filter { now.timeIntervalSince($0.updatedAt) > Self.firstRunQuiet }
            for row in settled {
                looks[row.repo, default: [:]][row.number] = RuleProposal(
                    number: row.number, updated: Self.version(row), head: "")
            }
            if !settled.isEmpty {
                note("rules previews: \(settled.count) merge requests not updated for a day taken as they are")
            }
        }
        let due = open.filter { looks[$0.repo]?[$0.number]?.updated != Self.version($0) }
            .sorted { ($0.updatedAt, $0.repo, $0.number) > ($1.updatedAt, $1.repo, $1.number) }
        let files = ForgeRuleFileReader(reader: reader)
        var requests = 0
        // Each look takes one request, up to four when the file changed, within the budget.
        let looking = min(Self.maximumProposalLooks, sweepLedger.budgetLeft.map { $0 / 2 } ?? Int.max)
        for row in due.prefix(looking) {
            let (look, sent) = try await look(at: row, files: files, registry: registry)
            looks[row.repo, default: [:]][row.number] = look
            requests += sent
        }
        note("rules previews: merge requests looked at (\(min(due.count, looking)))", requests: requests)
        if files.requests > 0 { note("rules previews: repo cat of the changed", requests: files.requests) }
        if due.count > looking {
            note("rules previews: \(due.count - looking) merge requests wait for the next runs")
        }
        for (path, rows) in byRepository.sorted(by: { $0.key < $1.key }) {
            let numbers = Set(rows.map(\.number))
            let kept = (looks[path] ?? [:]).values.filter { numbers.contains($0.number) }.sorted {
                $0.number < $1.number
            }
            update(path) { $0.proposals = kept.filter(\.changesRules) }
            keepCopy(kept, of: path, kind: Self.proposalsKind, entry: Self.proposalsEntry, format: 1)
        }
    }

    /// How long a merge request must have gone without an update for the first run to take it as it is.
    static let firstRunQuiet: TimeInterval = 24 * 3600

    /// `row`'s `updated_at` as kept with its look.
    private static func version(_ row: QueryItem) -> String {
        GitbayTimestamp.format(row.updatedAt, precision: .milliseconds)
    }

    /// One look at `row`'s merge request, with the requests it took.
    private func look(
        at row: QueryItem, files: ForgeRuleFileReader, registry: PluginRegistry
    ) async throws -> (RuleProposal, Int) {
        var look = RuleProposal(number: row.number, updated: Self.version(row), head: "")
        let onDefault = repository(row.repo).ruleFiles
        let headRef = "refs/merge-requests/\(row.number)/head"
        let atHead = try await ruleFileEntry(of: row.repo, at: headRef)
        guard atHead?.entry?.sha != onDefault?.blob else { return (look, 1) }
        let revisions = try await reader.send(MergeRequestRevisionsCommand(repository: row.repo, number: row.number))
        guard let current = revisions.last(where: \.isCurrent) ?? revisions.last else { return (look, 2) }
        look.head = current.sha
        var requests = 2
        if let base = current.baseSHA {
            requests += 1
            guard try await ruleFileEntry(of: row.repo, at: base)?.entry?.sha != atHead?.entry?.sha else {
                return (look, requests)
            }
        }
        if let (entry, ref) = atHead, let entry {
            look.files = try await ruleFiles(
                of: row.repo, entry: entry, at: ref, copy: onDefault, files: files, registry: registry,
                readAt: current.sha)
        } else {
            look.files = .noFile
        }
        return (look, requests)
    }
}
