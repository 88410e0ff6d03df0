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
                lines.append(String(String.UnicodeScalarView(line)))
                lines.append(Self.caret(under: location.column, in: line))
            }
        }
        lines += notes.map { $0.rendered(sources: sources, cache: &cache) }
        return lines.joined(separator: "\n")
    }

    /// `file:line:col: severity: message`.
    private var header: String { "\(location): \(severity.rawValue): \(message)" }

    /// A caret line that copies the tabs of the line's prefix so it aligns under any tab width.
    private static func caret(under column: Int, in line: [Unicode.Scalar]) -> String {
        let prefix = line.prefix(max(column - 1, 0)).map { $0 == "\t" ? "\t" : " " }.joined()
        let padding = String(repeating: " ", count: max(column - 1 - line.count, 0))
        return prefix + padding + "^"
    }
}
