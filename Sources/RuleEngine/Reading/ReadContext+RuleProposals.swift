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
    /// One query lists every open merge request of the scope with its `updated_at`, which a push
    /// moves (the feed never tells of a push); only one updated since the kept look is looked at
    /// again: `mr revisions` for its head and the base it was pushed on, then `repo tree .gitbay`
    /// at the head and, when that differs from the default branch's file, at the base, so a
    /// merge request behind a change of the file on its target is not taken for one changing it.
    /// A head changing the file has it read there (`repo cat --ref`), with its bases. Runs after
    /// ``readRepositoryRuleFiles(in:registry:)``, whose records are the default branches' files.
    mutating func readRuleProposals(
        in paths: [RepositoryPath], scope: RuleScope, registry: PluginRegistry
    ) async throws {
        if sweepLedger.budgetLeft == 0 {
            note("rules previews: wait for the next runs, the read budget spent")
            return
        }
        let rows = try await reader.all(try MergeRequestQueryCommand(query: "\(scope) is:mr is:open"))
        note("rules previews: open merge requests", requests: pages(rows.count))
        let reached = Set(paths)
        let open = rows.filter { reached.contains($0.repo) }
        let decoder = GitbayJSON.decoder()
        let entries = await cachedEntries(of: Self.proposalsKind)
        var looks: [RepositoryPath: [Int: RuleProposal]] = [:]
        for path in Set(open.map(\.repo)) {
            guard let entry = entries[Self.copyItem(path, entry: Self.proposalsEntry)], entry.format == 1,
                let kept = try? decoder.decode([RuleProposal].self, from: Data(entry.payload.utf8))
            else { continue }
            looks[path] = Dictionary(kept.map { ($0.number, $0) }) { first, _ in first }
        }
        let due = open.filter { looks[$0.repo]?[$0.number]?.updated != Self.version($0) }
            .sorted { ($0.updatedAt, $0.repo, $0.number) > ($1.updatedAt, $1.repo, $1.number) }
        let files = ForgeRuleFileReader(reader: reader)
        var requests = 0
        // Each look takes up to three requests, and the budget, when there is one, bounds them.
        let room = sweepLedger.budgetLeft.map { $0 / 3 } ?? Self.maximumProposalLooks
        let looking = min(Self.maximumProposalLooks, room)
        for row in due.prefix(looking) {
            let (look, sent) = try await look(
                at: row, previous: looks[row.repo]?[row.number], files: files, registry: registry)
            looks[row.repo, default: [:]][row.number] = look
            requests += sent
        }
        note(
            "rules previews: merge requests looked at (\(min(due.count, Self.maximumProposalLooks)))",
            requests: requests)
        if files.requests > 0 { note("rules previews: repo cat of the changed", requests: files.requests) }
        if due.count > looking {
            note("rules previews: \(due.count - looking) merge requests wait for the next runs")
        }
        for path in Set(open.map(\.repo)).sorted() {
            let numbers = Set(open.filter { $0.repo == path }.map(\.number))
            let kept = (looks[path] ?? [:]).values.filter { numbers.contains($0.number) }.sorted {
                $0.number < $1.number
            }
            update(path) { $0.proposals = kept.filter(\.changesRules) }
            keepCopy(kept, of: path, kind: Self.proposalsKind, entry: Self.proposalsEntry, format: 1)
        }
    }

    /// `row`'s `updated_at` as kept with its look.
    private static func version(_ row: QueryItem) -> String {
        GitbayTimestamp.format(row.updatedAt, precision: .milliseconds)
    }

    /// One look at `row`'s merge request, with the requests it took; the look before it stands
    /// when the head has not moved.
    private func look(
        at row: QueryItem, previous: RuleProposal?, files: ForgeRuleFileReader, registry: PluginRegistry
    ) async throws -> (RuleProposal, Int) {
        let revisions = try await reader.send(MergeRequestRevisionsCommand(repository: row.repo, number: row.number))
        guard let current = revisions.last(where: \.isCurrent) ?? revisions.last else {
            return (RuleProposal(number: row.number, updated: Self.version(row), head: ""), 1)
        }
        var look = RuleProposal(number: row.number, updated: Self.version(row), head: current.sha)
        if let previous, previous.head == current.sha {
            look.files = previous.files
            return (look, 1)
        }
        let onDefault = repository(row.repo).ruleFiles
        let atHead = try await ruleFileEntry(of: row.repo, at: current.sha)
        var requests = 2
        guard atHead?.entry?.sha != onDefault?.blob else { return (look, requests) }
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
