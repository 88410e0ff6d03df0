/// One parameter of a command pattern: `<labels:label>...`, `[strategy:ff|merge]`, `[users:user]...`.
public struct CommandParameter: Sendable, Hashable {
    /// The name templates use: `{{ command.strategy }}`.
    public let name: String
    public let type: CommandArgumentType
    /// `[name]`: the command may leave it out.
    public let isOptional: Bool
    /// `name...`: it takes every argument left (one or more, or with `[...]` any number).
    public let isRepeated: Bool

    public init(name: String, type: CommandArgumentType, isOptional: Bool, isRepeated: Bool) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isRepeated = isRepeated
    }

    /// As a pattern writes it.
    public var spelled: String {
        let inner = type == .word ? name : "\(name):\(type)"
        return (isOptional ? "[\(inner)]" : "<\(inner)>") + (isRepeated ? "..." : "")
    }
}
