/// One positional argument of a command, declared as data.
public struct PositionalSpec: Equatable, Sendable {
    /// The name shown as `<name>` in help and errors; also the key for reading the value.
    public var name: String
    /// The help text.
    public var help: String
    /// Whether the command runs without it.
    public var isOptional: Bool
    /// Whether it takes every remaining value (only sensible as the last positional).
    public var isRepeating: Bool

    /// Creates a positional argument; required and single unless told otherwise.
    public init(_ name: String, help: String = "", optional: Bool = false, repeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
    }
}
