/// A mistake in one condition's text, located inside it.
public struct ConditionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Where in the condition text the mistake is.
    public var span: SourceSpan

    public init(_ message: String, at span: SourceSpan) {
        self.message = message
        self.span = span
    }

    public var description: String { "\(message) (at offset \(span.start))" }
}
