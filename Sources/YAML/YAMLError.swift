/// The error every throwing API of this module raises: one or more located ``Diagnostic``s.
///
/// Several diagnostics appear when the decoder finds several unknown keys; a syntax error or a
/// type mismatch is a single one. Custom `init(from:)` implementations may throw it themselves to
/// report a problem at a precise place (see ``Located`` and ``Node/location(ofScalarOffset:)``).
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The diagnostics, in source order.
    public var diagnostics: [Diagnostic]

    /// Wraps diagnostics; there should be at least one error among them.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// A single error at `location`, the common case.
    public init(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        self.diagnostics = [.error(message, at: location, notes: notes)]
    }

    /// The headers of every diagnostic, one per line, without snippets.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// Every diagnostic in its full form with source lines and carets; see ``Diagnostic/rendered(sources:)``.
    public func rendered(sources: [String: [UInt8]]) -> String {
        var cache: [String: SourceText] = [:]
        return diagnostics.map { $0.rendered(sources: sources, cache: &cache) }.joined(separator: "\n")
    }
}
