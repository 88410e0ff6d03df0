import Foundation
import GitbayKit
import YAML

/// The failing `gitbay-bot/rules` commit status that tells a repository's maintainers, where they
/// look, that their rules file has an error and the bot does not use it.
///
/// It goes on the tip of the branch the file was read from (``RepositoryRuleFiles/branch``), read
/// with `repo refs` when the status is due: a file can break without changing (the operator's
/// rules took its command, say), so only this step knows which files need a tip. It names the
/// first error at its line and column and the command that shows every one. It is sent once:
/// the tip's statuses are read first (`status list`) and a status of the same state and text is
/// left alone, so a run every 15 minutes neither repeats it nor needs a memory of its own. At most
/// ``maximumPerRun`` go in one run, however many repositories one broken base breaks.
public enum RuleFileStatuses {
    /// The context the statuses go under; gitbay keeps `ci/` for its builds.
    public static let context = "gitbay-bot/rules"
    /// The most statuses one run sets; the rest go in the next runs.
    public static let maximumPerRun = 20
    /// The longest description sent: a line a forge's page shows whole.
    static let maximumDescription = 140

    /// The statuses `rules` asks for: one per broken repository whose tip `tips` knows.
    public static func wanted(_ rules: RepositoryRules, tips: [RepositoryPath: String]) -> [StatusSetCommand] {
        rules.broken.compactMap { repository, error in
            guard let tip = tips[repository] else { return nil }
            return try? StatusSetCommand(
                repository: repository, sha: tip, context: context, state: .failure,
                description: description(of: error, in: repository))
        }
    }

    /// `file:line:col: message; gitbay-bot check --repository X --read-bases`, the message cut
    /// to fit ``maximumDescription``.
    public static func description(of error: Diagnostic, in repository: RepositoryPath) -> String {
        let command = "; gitbay-bot check --repository \(repository) --read-bases"
        let line = "\(error.location.line):\(error.location.column): \(error.message)"
        let room = maximumDescription - command.count
        let cut = line.count <= room ? line : String(line.prefix(max(0, room - 1))) + "…"
        return cut + command
    }

    /// The tip of the branch each of `repositories`' file was read from in `state`, one `repo
    /// refs` each; a repository whose branch is gone is left out.
    static func tips(
        of repositories: [RepositoryPath], in state: ForgeState, reader: any ForgeReader
    ) async throws -> [RepositoryPath: String] {
        let branches = Dictionary(
            state.repositories.compactMap { repository in repository.ruleFiles?.branch.map { (repository.path, $0) } },
            uniquingKeysWith: { first, _ in first })
        var tips: [RepositoryPath: String] = [:]
        for repository in repositories {
            guard let branch = branches[repository] else { continue }
            let refs = try await reader.send(RepoRefsCommand(repository: repository))
            tips[repository] = refs.branches.first { $0.name == branch }?.sha
        }
        return tips
    }

    /// The read cache's kind, and its one entry, for the repositories whose file had an error at
    /// the last status step: the memory that tells a file mended since.
    static let memoryKind = ItemKind(rawValue: "rule-file-statuses")
    static let memoryItem = "rule-file-statuses/broken"

    /// The repositories of `state` whose file had an error at the last status step and loads
    /// without one now: each gets a passing status on its tip, so its maintainers see the fix
    /// taken where they saw the failure.
    static func mended(_ rules: RepositoryRules, before: Set<RepositoryPath>) -> [RepositoryPath] {
        let broken = Set(rules.broken.map(\.repository))
        return before.subtracting(broken).filter { rules.sets[$0] != nil }.sorted()
    }

    /// The passing status of each repository in `mended` whose tip `tips` knows.
    static func passing(
        _ mended: [RepositoryPath], rules: RepositoryRules, tips: [RepositoryPath: String]
    )
        -> [StatusSetCommand]
    {
        mended.compactMap { repository in
            guard let tip = tips[repository] else { return nil }
            let count = rules.sets[repository]?.rules.count ?? 0
            return try? StatusSetCommand(
                repository: repository, sha: tip, context: context, state: .success,
                description: "mended: its \(count) rule\(count == 1 ? "" : "s") act again")
        }
    }

    /// Sends the status each broken repository of `rules` asks for (its branch as `state`
    /// recorded it) that its tip does not carry yet, and a passing one where a file broken at the
    /// last step (`memory`) loads now, at most ``maximumPerRun``; answers what it sent and what it
    /// left for the next runs, and keeps the broken ones in `memory` for the next step.
    ///
    /// A status gitbay refuses (the repository archived meanwhile, the token without write access
    /// there) is reported and the others still go; a failure that stops reads (the server out of
    /// reach) stops them all, for the next run to try again, the memory as it was.
    public static func settle(
        _ rules: RepositoryRules, state: ForgeState, reader: any ForgeReader, writer: any ForgeWriter,
        memory: any ReadCache
    ) async throws -> (sent: [StatusSetCommand], refused: [(StatusSetCommand, String)], left: Int) {
        let before =
            try await memory.cachedDetails(of: memoryKind).first { $0.item == memoryItem }
            .flatMap { try? JSONDecoder().decode([String].self, from: Data($0.payload.utf8)) }
            .map { Set($0.compactMap { try? RepositoryPath($0) }) } ?? []
        let mended = mended(rules, before: before)
        let tips = try await tips(of: rules.broken.map(\.repository) + mended, in: state, reader: reader)
        let wanted = wanted(rules, tips: tips) + passing(mended, rules: rules, tips: tips)
        var sent: [StatusSetCommand] = []
        var refused: [(StatusSetCommand, String)] = []
        var left = 0
        for status in wanted {
            let current = try await reader.send(StatusListCommand(repository: status.repository, sha: status.sha))
            let standing = current.statuses.contains {
                $0.context == status.context && $0.state == status.state && $0.description == status.description
            }
            guard !standing else { continue }
            guard sent.count + refused.count < maximumPerRun else {
                left += 1
                continue
            }
            do {
                try await writer.write(status.control)
                sent.append(status)
            } catch {
                guard error.isRefusal else { throw error }
                refused.append((status, error.message))
            }
        }
        let broken = rules.broken.map(\.repository.description)
        if broken.sorted() != before.map(\.description).sorted(), left == 0,
            let payload = try? JSONEncoder().encode(broken)
        {
            let entry = CachedDetail(
                item: memoryItem, kind: memoryKind, format: 1, version: "1",
                payload: String(decoding: payload, as: UTF8.self))
            try await memory.storeDetails([entry], at: state.now)
        }
        return (sent, refused, left)
    }
}
