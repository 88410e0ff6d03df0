import Foundation

/// Why a forge-state file could not be read: where the bad value is, as a JSON path, and what is wrong.
///
/// People write these files by hand for fixtures and demos, so a message such as
/// `repos[0].issues[3].created_at: not a timestamp: "yesterday"` has to lead straight to the value;
/// a raw `DecodingError` dump names Swift types and coding keys instead.
public struct ForgeStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value (`repos[0].issues[3].created_at`); empty for the whole document.
    public var path: String
    /// What is wrong with it.
    public var problem: String
    /// Where in the file, for bytes that are not JSON at all (no value has a path then).
    public var position: Position?

    /// A line and a column, both from 1; the column counts characters.
    public struct Position: Sendable, Hashable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    public init(path: String, problem: String, position: Position? = nil) {
        self.path = path
        self.problem = problem
        self.position = position
    }

    public var description: String {
        if let position { return "line \(position.line), column \(position.column): \(problem)" }
        return path.isEmpty ? problem : "\(path): \(problem)"
    }

    /// The error as a message about `file`, compiler-style when it has a position
    /// (`forge.json:3:14: not valid JSON: invalid value`), else `forge.json: repos[0].path: ...`.
    public func message(about file: String) -> String {
        guard let position else { return "\(file): \(description)" }
        return "\(file):\(position.line):\(position.column): \(problem)"
    }

    /// Translates a decoder's error into a path and a sentence.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), problem: "required key is missing")
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), problem: "is null; expected \(Self.noun(type))")
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), problem: "expected \(Self.noun(type))")
        case .dataCorrupted(let context):
            self.init(path: Self.path(context.codingPath), problem: Self.problem(context))
        @unknown default:
            self.init(path: "", problem: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// The error for bytes that are not JSON at all, at the line and column where the parser
    /// stopped (`JSONDecoder` on Linux says only "not valid JSON"; `JSONSerialization` says where,
    /// as a byte offset: "Invalid value around character 51.", or the end of the file).
    static func invalidJSON(_ data: Data) -> ForgeStateFileError {
        var detail: String?
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
        guard var detail else { return ForgeStateFileError(path: "", problem: "not valid JSON") }
        var offset: Int?
        if let marker = detail.range(of: " around character ") {
            offset = Int(detail[marker.upperBound...].prefix { $0.isNumber })
            detail = String(detail[..<marker.lowerBound])
        } else if detail.hasPrefix("Unexpected end of file") {
            offset = data.count
        }
        if detail.hasSuffix(".") { detail.removeLast() }
        let problem = "not valid JSON: " + detail.prefix(1).lowercased() + detail.dropFirst()
        return ForgeStateFileError(path: "", problem: problem, position: offset.map { position(of: $0, in: data) })
    }

    /// The line and column of the byte at `offset` in `data`; the column counts characters.
    static func position(of offset: Int, in data: Data) -> Position {
        let bytes = data.prefix(max(0, offset))
        let lineStart = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex
        let line = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        return Position(line: line, column: String(decoding: bytes[lineStart...], as: UTF8.self).count + 1)
    }

    /// Renders a coding path as JSON path: keys joined by dots, array positions in brackets.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// The sentence for a corrupted value: GitbayKit's timestamp refusal reworded, anything else
    /// passed through.
    private static func problem(_ context: DecodingError.Context) -> String {
        let timestampPrefix = "not a gitbay timestamp: "
        if context.debugDescription.hasPrefix(timestampPrefix) {
            let text = context.debugDescription.dropFirst(timestampPrefix.count)
            return "not a timestamp: \"\(text)\" (expected the form 2026-11-29T12:00:00.000Z)"
        }
        return context.debugDescription
    }

    /// How a message names the JSON value a Swift type expects.
    private static func noun(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "a list"
        case is [String: Any].Type: return "an object"
        default: return "a value of type \(type)"
        }
    }
}
