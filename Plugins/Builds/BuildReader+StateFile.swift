import Foundation
import GitbayKit
import RuleEngine

/// Builds in a forge-state file: the `builds` list of a repository, as `build list` rows.
extension BuildReader: StateFileList, StateFileDerivation {
    var stateFileKey: String { "builds" }

    func decodeStateFile(
        from container: KeyedDecodingContainer<StateFileKey>, key: StateFileKey
    ) throws -> any ItemCollection {
        Records(try container.decodeIfPresent([Build].self, forKey: key) ?? [])
    }

    func encodeStateFile(
        _ collection: any ItemCollection, to container: inout KeyedEncodingContainer<StateFileKey>, key: StateFileKey
    ) throws {
        let builds = (collection as? Records<Build>)?.all ?? []
        if !builds.isEmpty { try container.encode(builds, forKey: key) }
    }

    func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError) {
        let builds = (collection as? Records<Build>)?.all ?? []
        try ForgeStateFile.check(
            builds.map { ($0.number, $0.status.rawValue) }, at: path, allowed: BuildStatus.knownValues.map(\.rawValue),
            field: "status")
    }

    /// Newest first, as `build list` answers, with the tips `repo refs` gives, by name.
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {
        repository.builds = repository.builds.sorted { $0.number > $1.number }
        repository.refs = RepositoryRefs(
            branches: file.branches.sorted { $0.key < $1.key }.map { RepositoryRef(name: $0.key, sha: $0.value) },
            tags: file.tags.sorted { $0.key < $1.key }.map { RepositoryRef(name: $0.key, sha: $0.value) })
    }

    /// The tips a run read, as the file's `branches` and `tags`.
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {
        file.branches = Dictionary(
            repository.refs?.branches.map { ($0.name, $0.sha) } ?? [], uniquingKeysWith: { $1 })
        file.tags = Dictionary(repository.refs?.tags.map { ($0.name, $0.sha) } ?? [], uniquingKeysWith: { $1 })
    }
}
