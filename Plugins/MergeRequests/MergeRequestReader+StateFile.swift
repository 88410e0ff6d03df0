import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

/// Merge requests in a forge-state file: the `merge_requests` list of a repository, as `mr show`
/// sends them before what gitbay derives on read (stacks, combined checks, gates).
extension MergeRequestReader: StateFileList, StateFileDerivation {
    var stateFileKey: String { "merge_requests" }

    /// The list in the file's order, as the file says it (so errors point at the right index),
    /// each with its head's statuses from the repository's `statuses`, descriptions included:
    /// what `status list` would answer, so an offline plan judges `set-status` as a live one does;
    /// and each with its `revisions` (gitbay's `mr_heads` rows, oldest first), numbered and marked
    /// current as `mr revisions` answers them, else its head as the one it was opened with.
    func decodeStateFile(
        from container: KeyedDecodingContainer<StateFileKey>, key: StateFileKey
    ) throws -> any ItemCollection {
        let mergeRequests = try container.decodeIfPresent([MergeRequest].self, forKey: key) ?? []
        let heads = try container.decodeIfPresent([StoredHeads].self, forKey: key) ?? []
        let statuses =
            try container.decodeIfPresent([String: [CommitStatus]].self, forKey: StateFileKey("statuses")) ?? [:]
        return Records(
            zip(mergeRequests, heads).map { mergeRequest, heads in
                let revisions = heads.revisions?.enumerated().map { index, stored in
                    MergeRequestRevision(
                        number: index + 1, sha: stored.sha, baseSHA: stored.baseSHA, createdAt: stored.createdAt,
                        isCurrent: stored.sha == mergeRequest.headSHA)
                }
                return MergeRequestRecord(
                    mergeRequest: mergeRequest, known: Set(ReadNeed.item),
                    headStatuses: Self.headStatuses(of: mergeRequest, recorded: statuses[mergeRequest.headSHA] ?? []),
                    revisions: revisions ?? [Self.opening(mergeRequest)])
            })
    }

    /// A merge request's `revisions` in the file: `{"sha", "base_sha"?, "created_at"}` each, the
    /// rows `mr revisions` numbers and marks current (docs/forge-state.md).
    private struct StoredHeads: Decodable {
        struct Revision: Codable {
            var sha: String
            var baseSHA: String?
            var createdAt: Date

            private enum CodingKeys: String, CodingKey {
                case sha
                case baseSHA = "base_sha"
                case createdAt = "created_at"
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                sha = try container.decode(String.self, forKey: .sha)
                baseSHA = try container.decodeIfPresent(String.self, forKey: .baseSHA).flatMap { $0.isEmpty ? nil : $0 }
                let stamp = try container.decode(String.self, forKey: .createdAt)
                guard let createdAt = GitbayTimestamp.parse(stamp) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .createdAt, in: container, debugDescription: "'\(stamp)' is not a timestamp")
                }
                self.createdAt = createdAt
            }

            init(_ revision: MergeRequestRevision) {
                sha = revision.sha
                baseSHA = revision.baseSHA
                createdAt = revision.createdAt
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(sha, forKey: .sha)
                try container.encodeIfPresent(baseSHA, forKey: .baseSHA)
                try container.encode(GitbayTimestamp.format(createdAt, precision: .milliseconds), forKey: .createdAt)
            }
        }

        var revisions: [Revision]?
    }

    /// A merge request as the file keeps it: as `mr show` sends it, and its `revisions` when a
    /// push has moved its head since it was opened (a file without them reads back as
    /// ``opening(_:)``, so the key is left out then and older files are written unchanged).
    private struct StoredMergeRequest: Encodable {
        var mergeRequest: MergeRequest
        var revisions: [StoredHeads.Revision]?

        func encode(to encoder: any Encoder) throws {
            try mergeRequest.encode(to: encoder)
            guard let revisions else { return }
            var container = encoder.container(keyedBy: StateFileKey.self)
            try container.encode(revisions, forKey: StateFileKey("revisions"))
        }
    }

    /// The revision gitbay records when a merge request is opened (`internal/store/mrs.go`,
    /// `CreateMR`): a file that lists no revisions says no push has moved the head since.
    static func opening(_ mergeRequest: MergeRequest) -> MergeRequestRevision {
        MergeRequestRevision(number: 1, sha: mergeRequest.headSHA, createdAt: mergeRequest.createdAt, isCurrent: true)
    }

    /// The statuses of `mergeRequest`'s head: those recorded for the commit, then each of its
    /// `checks` whose context none of them has (a check carries no description), by context as
    /// gitbay lists them (`store/statuses.go` `ListCommitStatuses`).
    static func headStatuses(of mergeRequest: MergeRequest, recorded: [CommitStatus]) -> CommitStatuses {
        var statuses = recorded
        for check in mergeRequest.checks where !statuses.contains(where: { $0.context == check.context }) {
            statuses.append(CommitStatus(context: check.context, state: check.state, url: check.url))
        }
        statuses.sort { $0.context.utf8.lexicographicallyPrecedes($1.context.utf8) }
        return CommitStatuses(sha: mergeRequest.headSHA, statuses: statuses)
    }

    func encodeStateFile(
        _ collection: any ItemCollection, to container: inout KeyedEncodingContainer<StateFileKey>, key: StateFileKey
    ) throws {
        let stored = ((collection as? Records<MergeRequestRecord>)?.all ?? []).map { record in
            var mergeRequest = record.mergeRequest
            mergeRequest.stackedOn = nil
            mergeRequest.stacked = []
            mergeRequest.gates = nil
            let revisions = record.revisions.flatMap { $0 == [Self.opening(record.mergeRequest)] ? nil : $0 }
            return StoredMergeRequest(mergeRequest: mergeRequest, revisions: revisions?.map(StoredHeads.Revision.init))
        }
        if !stored.isEmpty { try container.encode(stored, forKey: key) }
        let statuses = Self.recordedStatuses((collection as? Records<MergeRequestRecord>)?.all ?? [])
        if !statuses.isEmpty { try container.encode(statuses, forKey: StateFileKey("statuses")) }
    }

    /// The repository's `statuses` as the file keeps them: each head's statuses as `status list`
    /// gave them, for the heads whose statuses the merge request's `checks` do not already give
    /// (so a file without `statuses` is written back without them).
    private static func recordedStatuses(_ records: [MergeRequestRecord]) -> [String: [CommitStatus]] {
        var recorded: [String: [CommitStatus]] = [:]
        for record in records {
            guard let head = record.headStatuses,
                head.statuses != headStatuses(of: record.mergeRequest, recorded: []).statuses
            else { continue }
            recorded[head.sha] = head.statuses
        }
        return recorded
    }

    func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError) {
        let mergeRequests = (collection as? Records<MergeRequestRecord>)?.all.map(\.mergeRequest) ?? []
        try ForgeStateFile.check(
            mergeRequests.map { ($0.number, $0.state.rawValue) }, at: path,
            allowed: MergeRequestState.knownValues.map(\.rawValue), field: "state")
    }

    /// Newest first, as `mr show` sends each, with the stacks, combined checks and gates gitbay
    /// computes on every read.
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {
        let derived = ForgeDerivation.derive(
            repository.mergeRequests.map(\.mergeRequest).sorted { $0.number > $1.number }.map(Self.normalized),
            path: file.path, settings: file.settings)
        let everything = Set(ReadNeed.item).union([.statuses, .revisions])
        var read: [Int: MergeRequestRecord] = [:]
        for record in repository.mergeRequests { read[record.number] = record }
        repository.mergeRequests = derived.map {
            MergeRequestRecord(
                mergeRequest: $0, known: everything, headStatuses: read[$0.number]?.headStatuses,
                revisions: read[$0.number]?.revisions ?? [Self.opening($0)])
        }
    }

    /// Merge requests count towards their labels and their milestone: open or `source_gone` as
    /// open, merged or closed as closed.
    func count(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        let mergeRequests = repository.mergeRequests.map(\.mergeRequest)
        for index in file.labels.indices {
            let count = mergeRequests.filter { $0.labels.contains(file.labels[index].name) }.count
            file.labels[index].mergeRequests = (file.labels[index].mergeRequests ?? 0) + count
        }
        file.countMilestones(
            mergeRequests.map { mergeRequest in
                let open: Bool? =
                    switch mergeRequest.state {
                    case .open, .sourceGone: true
                    case .merged, .closed: false
                    default: nil
                    }
                return (mergeRequest.milestone, open)
            })
    }

    /// The merge gates the merge requests echo, as the repository's settings.
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        if let gates = repository.mergeRequests.lazy.compactMap(\.mergeRequest.gates).first {
            file.settings = MergeGateSettings(gates: gates)
        }
    }

    /// A merge request as `mr show` sends it, before derivation, plus `updated_at` (default `created_at`).
    private static func normalized(_ mergeRequest: MergeRequest) -> MergeRequest {
        var mergeRequest = mergeRequest
        mergeRequest.labels.sort()
        mergeRequest.reviewRequests.sort()
        mergeRequest.comments = mergeRequest.comments.map(\.normalized)
        mergeRequest.updatedAt = mergeRequest.updatedAt ?? mergeRequest.createdAt
        return mergeRequest
    }
}
