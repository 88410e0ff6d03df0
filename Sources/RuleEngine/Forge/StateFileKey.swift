/// A key of a repository in a forge-state file, any string: each kind's list has the key its
/// plugin declares (``StateFileList/stateFileKey``).
public struct StateFileKey: CodingKey, Hashable, Sendable {
    public let stringValue: String

    public init(_ name: String) {
        stringValue = name
    }

    public init?(stringValue: String) {
        self.stringValue = stringValue
    }

    public var intValue: Int? { nil }

    public init?(intValue: Int) {
        nil
    }
}

extension CodingUserInfoKey {
    /// Where a forge-state file's coders find the ``PluginRegistry`` whose kinds read and write
    /// the repositories' lists.
    public static let pluginRegistry = CodingUserInfoKey(rawValue: "gitbay-bot.plugin-registry")!
}
