/// A position in a YAML source file, as people see it in their editor.
///
/// Lines and columns are 1-based. Columns count Unicode scalars (libyaml's unit), not bytes or
/// UTF-16 units, so `é` and `𝄞` each take one column; a tab is one column too.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file name as given to ``YAML/compose(bytes:file:limits:)``; it appears verbatim in diagnostics.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location from its parts.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the prefix compilers and editors recognise as a jump target.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders locations by file, then line, then column, so diagnostics come out in reading order.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
