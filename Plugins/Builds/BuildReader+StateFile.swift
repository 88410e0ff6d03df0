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

    /// Newest first, as `build list` answers.
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository) {
        repository.builds = repository.builds.sorted { $0.number > $1.number }
    }
}
