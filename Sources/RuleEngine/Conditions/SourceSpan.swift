/// A stretch of a condition's text, in Unicode scalars from its start.
///
/// Columns in rule files are counted in Unicode scalars (libyaml's unit), so a span added to the
/// column where the condition's scalar starts gives the column of the mistake inside it.
public struct SourceSpan: Sendable, Hashable {
    /// Offset of the first scalar.
    public var start: Int
    /// Scalars covered; at least one, so a caret always has something to point at.
    public var length: Int

    public init(start: Int, length: Int) {
        self.start = start
        self.length = max(length, 1)
    }

    /// The smallest span that covers both.
    public func union(_ other: SourceSpan) -> SourceSpan {
        let start = min(self.start, other.start)
        let end = max(self.start + length, other.start + other.length)
        return SourceSpan(start: start, length: end - start)
    }
}
