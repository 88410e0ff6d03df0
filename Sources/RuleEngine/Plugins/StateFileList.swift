/// A kind whose items a forge-state file keeps as a list of their own in each repository
/// (`issues`), which the kind reads, writes back and checks.
public protocol StateFileList: Sendable {
    /// The key of this kind's list in a repository of a forge-state file (`issues`).
    var stateFileKey: String { get }

    /// This kind's records from its list in a forge-state file (the list at `key` of `container`),
    /// sorted newest first and normalised as gitbay serves them (sorted names, defaults filled);
    /// everything is known of them. What gitbay derives across items comes after, in
    /// ``StateFileDerivation/derive(_:file:)``.
    func decodeStateFile(
        from container: KeyedDecodingContainer<StateFileKey>, key: StateFileKey
    ) throws -> any ItemCollection

    /// Writes this kind's records back to its list, leaving out what gitbay derives on read.
    func encodeStateFile(
        _ collection: any ItemCollection, to container: inout KeyedEncodingContainer<StateFileKey>, key: StateFileKey
    ) throws

    /// Refuses what gitbay would never hold (a number twice, an unknown state), naming the value
    /// by its JSON path under `path` (`repos[0].issues`).
    func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError)
}

extension StateFileList {
    /// Rows a forge-state file can hold are rows gitbay accepts.
    public func validateStateFile(_ collection: any ItemCollection, at path: String) throws(ForgeStateFileError) {}
}
