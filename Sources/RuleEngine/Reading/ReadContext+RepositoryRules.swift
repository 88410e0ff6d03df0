import Foundation
import GitbayKit
import Synchronization

extension ReadContext {
    /// The read cache's kind for the copies of rules files: no plugin's items, so no plugin's
    /// copy is ever taken for one.
    static let ruleFilesKind = ItemKind(rawValue: "repository-rules")

    /// How many sweep periods a rules file goes unlooked at when nothing says it changed: a file
    /// changes seldom, and mostly by a merge, which the feed shows and the next run reads; a direct
    /// push no webhook told of waits this long (a day with the default period), for a quarter of
    /// the looks (at 1,000 repositories, about 10 a run instead of 38).
    static let ruleFilesPeriods: Double = 4

    /// Whether `event` may have moved a repository's default branch, and with it its rules file:
    /// a merge, or a push (a webhook delivery's; the feed shows none).
    @Sendable public static func movesDefaultBranch(_ event: FeedEvent) -> Bool {
        event.kind == "mr.merged" || event.kind == "push"
    }

    /// Reads `.gitbay/bot.yml` of each repository in `paths` where it may have changed, and keeps
    /// each repository's record (``RepositoryRuleFiles``) in its state, read or taken from the copy.
    ///
    /// The rolling sweep decides which repositories are looked at (a merge or a push there, a copy
    /// a period old, the run's share), so a quiet run reads none. A look is one `repo tree .gitbay`;
    /// the file is read only when its object id moved, and the files it extends once per run,
    /// whichever repositories name them. A failure that says nothing of the files (the server out
    /// of reach, the rate limit) is thrown: a repository never gets a mistake it did not make.
    mutating func readRepositoryRuleFiles(
        in paths: [RepositoryPath], registry: PluginRegistry
    ) async throws {
        let entry = "rules-file"
        let decoder = GitbayJSON.decoder()
        let swept = await sweep(
            paths, of: Self.ruleFilesKind, entry: entry, format: 1, periods: Self.ruleFilesPeriods,
            touches: Self.movesDefaultBranch
        ) { try? decoder.decode(RepositoryRuleFiles.self, from: Data($0.utf8)) }
        for (path, copy) in swept.kept {
            update(path) { $0.ruleFiles = copy }
        }
        let files = ForgeRuleFileReader(reader: reader)
        var looks = 0
        for path in swept.read {
            guard mayRead(path, in: swept) else {
                if let copy = swept.copies[path] { update(path) { $0.ruleFiles = copy } }
                continue
            }
            looks += 1
            let record = try await ruleFiles(
                of: path, copy: swept.copies[path], files: files, registry: registry)
            update(path) { $0.ruleFiles = record }
            if let payload = try? GitbayJSON.encoder().encode(record) {
                keepCopy(
                    String(decoding: payload, as: UTF8.self), of: path, kind: Self.ruleFilesKind, entry: entry,
                    format: 1, touches: Self.movesDefaultBranch)
            }
        }
        note("rules files: repo tree .gitbay", requests: looks)
        if files.requests > 0 { note("rules files: repo cat of the changed", requests: files.requests) }
    }

    /// `path`'s rules file as its default branch holds it now, with the bases it extends.
    private func ruleFiles(
        of path: RepositoryPath, copy: RepositoryRuleFiles?, files: ForgeRuleFileReader, registry: PluginRegistry
    ) async throws -> RepositoryRuleFiles {
        guard let (entry, ref) = try await ruleFileEntry(of: path, at: nil), let entry else { return .noFile }
        return try await ruleFiles(of: path, entry: entry, at: ref, copy: copy, files: files, registry: registry)
    }

    /// `.gitbay/bot.yml`'s entry in `path`'s tree at `ref` (the default branch when `nil`), with the
    /// ref the tree was read at; `nil` when there is no `.gitbay` folder (or no commit yet), a
    /// `nil` entry when the folder holds no such file.
    func ruleFileEntry(
        of path: RepositoryPath, at ref: String?
    ) async throws -> (entry: RepositoryTree.Entry?, ref: String)? {
        let tree: RepositoryTree
        do {
            tree = try await reader.send(RepoTreeCommand(repository: path, path: ".gitbay", ref: ref))
        } catch {
            // No `.gitbay` folder (or no commit yet) is gitbay's "no such path": no file.
            guard let failure = (error as? any ForgeFailureConvertible)?.forgeFailure, failure.isRefusal else {
                throw error
            }
            return nil
        }
        return (tree.entries.first { $0.name == "bot.yml" && $0.type == "blob" }, tree.ref)
    }

    /// The record of the rules file `entry` names in `path` at `ref`, with the bases it extends:
    /// the text of `copy` when its object id is the same, else read (at `ref`, which a record of the
    /// default branch keeps as its branch).
    func ruleFiles(
        of path: RepositoryPath, entry: RepositoryTree.Entry, at ref: String, copy: RepositoryRuleFiles?,
        files: ForgeRuleFileReader, registry: PluginRegistry, readAt commit: String? = nil
    ) async throws -> RepositoryRuleFiles {
        let name = RuleFileReference(repository: path, path: RuleFileReference.repositoryFile)
        var record = RepositoryRuleFiles(blob: entry.sha, branch: ref)
        if entry.mode == "120000" {
            record.own = .refused("\(name) is a symbolic link; the bot reads a file's own text")
        } else if let size = entry.size, size > RepositoryRuleChain.maximumBytes {
            // Refused by its size in the tree: a file of 10 MB is never fetched to be refused.
            record.own = .refused(
                "\(name) is \(size) bytes; a rules file holds at most \(RepositoryRuleChain.maximumBytes / 1024) KiB")
        } else if copy?.blob == entry.sha, let own = copy?.own {
            record.own = own
        } else {
            record.own = await files.cat(
                RuleFileReference(repository: path, path: RuleFileReference.repositoryFile, ref: commit))
        }
        // The chain is walked to learn the bases it reaches, each read once per run.
        if case .text(let text) = record.own {
            let chain = ChainFetches(files: files)
            _ = await RepositoryRuleChain.load(
                (name.description, Array(text.utf8)),
                confinement: RepositoryConfinement(repository: path), registry: registry, fetcher: chain
            )
            let read = files.read
            record.bases = Dictionary(
                uniqueKeysWithValues: chain.references.compactMap { key in read[key].map { (key, $0) } })
        }
        if let interruption = files.interruption { throw interruption }
        return record
    }
}

/// The files one chain asked for, read through the run's ``ForgeRuleFileReader``.
private final class ChainFetches: RuleFileFetcher {
    let files: ForgeRuleFileReader
    private let asked = Mutex<[String]>([])

    init(files: ForgeRuleFileReader) {
        self.files = files
    }

    /// The references asked for, in order.
    var references: [String] { asked.withLock { $0 } }

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        asked.withLock { $0.append(reference.description) }
        return await files.fetch(reference)
    }
}
