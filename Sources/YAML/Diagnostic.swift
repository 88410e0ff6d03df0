/// One message about a YAML file, anchored at a source location, in the form compilers use.
///
/// Every stage (libyaml's reader, scanner and parser, the composer, the decoder and later the rule
/// checker) reports through this one type, so users see `file:line:col: error: message` whatever
/// went wrong, and editors can jump to it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Whether this is an error, a warning or a note.
    public var severity: Severity
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in one line, without the location prefix.
    public var message: String
    /// Supporting notes (for example where a duplicate key was first defined), printed after this one.
    public var notes: [Diagnostic]

    /// The most characters of a source line shown under a diagnostic.
    ///
    /// A pathological file (one line nested thousands deep, a generated blob) would otherwise
    /// print tens of kilobytes under one message; a window this wide around the column, marked
    /// `…` where it is cut, still shows what is wrong there.
    public static let excerptWidth = 200

    /// Creates a diagnostic from its parts.
    public init(severity: Severity, location: SourceLocation, message: String, notes: [Diagnostic] = []) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// An error at `location`.
    public static func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(severity: .error, location: location, message: message, notes: notes)
    }

    /// A warning at `location`.
    public static func warning(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(severity: .warning, location: location, message: message, notes: notes)
    }

    /// A note at `location`, to attach to another diagnostic's `notes`.
    public static func note(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(severity: .note, location: location, message: message)
    }

    /// The header lines only (`file:line:col: severity: message`, then each note's), without snippets.
    public var description: String {
        ([header] + notes.map(\.description)).joined(separator: "\n")
    }

    /// The full compiler-style form: each header followed by its source line and a caret.
    ///
    /// `sources` maps file names to their raw bytes; a location whose file is missing from it is
    /// printed without a snippet.
    public func rendered(sources: [String: [UInt8]]) -> String {
        var cache: [String: SourceText] = [:]
        return rendered(sources: sources, cache: &cache)
    }

    /// Renders with a cache of decoded sources shared across the diagnostics of one error.
    func rendered(sources: [String: [UInt8]], cache: inout [String: SourceText]) -> String {
        var lines = [header]
        if let bytes = sources[location.file] {
            let text = cache[location.file] ?? SourceText(bytes: bytes)
            cache[location.file] = text
            if let line = text.line(location.line) {
                let excerpt = Self.excerpt(of: line, column: location.column)
                lines.append(String(String.UnicodeScalarView(excerpt.line)))
                lines.append(Self.caret(under: excerpt.column, in: excerpt.line))
            }
        }
        lines += notes.map { $0.rendered(sources: sources, cache: &cache) }
        return lines.joined(separator: "\n")
    }

    /// `file:line:col: severity: message`.
    private var header: String { "\(location): \(severity.rawValue): \(message)" }

    /// The part of `line` shown under a diagnostic at `column`, and the column in it: the whole line
    /// up to ``excerptWidth`` characters, else a window that wide around the column, with `…` for
    /// each end it cuts (the column counts the leading mark).
    private static func excerpt(of line: [Unicode.Scalar], column: Int) -> (line: [Unicode.Scalar], column: Int) {
        guard line.count > excerptWidth else { return (line, column) }
        let index = min(max(column - 1, 0), line.count)
        let start = max(0, min(index - excerptWidth / 2, line.count - excerptWidth))
        let end = start + excerptWidth
        let lead: [Unicode.Scalar] = start > 0 ? ["…"] : []
        let trail: [Unicode.Scalar] = end < line.count ? ["…"] : []
        return (lead + line[start..<end] + trail, column - start + lead.count)
    }

    /// A caret line that copies the tabs of the line's prefix so it aligns under any tab width.
    private static func caret(under column: Int, in line: [Unicode.Scalar]) -> String {
        let prefix = line.prefix(max(column - 1, 0)).map { $0 == "\t" ? "\t" : " " }.joined()
        let padding = String(repeating: " ", count: max(column - 1 - line.count, 0))
        return prefix + padding + "^"
    }
}
