/// Why a rule's `command:` pattern cannot be used, and where in the pattern.
public struct CommandPatternError: Error, Sendable, Hashable {
    public let message: String
    /// The character of the pattern it points at, from 0, so `check` can give the rule file's column.
    public let offset: Int

    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }
}
