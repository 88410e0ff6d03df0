import CommentCommands
import GitbayKit

extension ReadSession {
    /// Learns who may write to each listed repository where a rule takes commands from writers:
    /// gitbay's roles when the bot may read them, else `configured` (the settings' `writers:`).
    ///
    /// `repo access list` is the one read that tells another account's role, and gitbay answers it
    /// only to a token that administers the repository (exit 4 otherwise, `runAccessList` in
    /// `internal/control/repo.go`); a refusal is said once per run, not failed on. Only
    /// repositories holding an item some such rule may answer are asked, one request each.
    mutating func readWriters(rules: [Rule], configured: Set<String>) async throws {
        let asking = rules.filter { $0.command?.allowed.contains(.writers) == true }
        guard !asking.isEmpty else { return }
        var read = 0
        var refused: [RepositoryPath] = []
        for path in context.repositories.keys.sorted() {
            guard asking.contains(where: { $0.scope.contains(path) }), !context.repository(path).archived,
                context.repository(path).writers == nil
            else { continue }
            let writers: CommandWriters
            do {
                let grants = try await context.reader.send(RepoAccessListCommand(repository: path))
                read += 1
                writers = CommandWriters(accounts: Set(grants.filter(\.canWrite).map(\.user)), source: .gitbay)
            } catch let error as any ForgeFailureConvertible where error.forgeFailure.kind == .denied {
                read += 1
                refused.append(path)
                writers = CommandWriters(
                    accounts: configured,
                    source: .configured(
                        configured.isEmpty
                            ? "gitbay tells roles only to a token that administers the repository, and no "
                                + "writers: are configured"
                            : "gitbay tells roles only to a token that administers the repository; the configured "
                                + "writers: decide"))
            }
            context.update(path) { $0.writers = writers }
        }
        guard read > 0 else { return }
        context.note("writers: repo access list", requests: read)
        if !refused.isEmpty {
            context.note(
                "writers: \(refused.count) repositor\(refused.count == 1 ? "y" : "ies") will not tell roles to this "
                    + "token (repo access list needs admin); "
                    + (configured.isEmpty
                        ? "no writers: are configured, so commands for writers are refused there"
                        : "the \(configured.count) configured writers: decide there"))
        }
    }
}
