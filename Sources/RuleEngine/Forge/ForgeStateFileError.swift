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

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }

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

    /// The error for bytes that are not JSON at all, with the parser's position when it gives one
    /// (`JSONDecoder` on Linux says only "not valid JSON"; `JSONSerialization` says where).
    static func invalidJSON(_ data: Data) -> ForgeStateFileError {
        var problem = "not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            if let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String {
                problem += ": \(detail)"
            }
        }
        return ForgeStateFileError(path: "", problem: problem)
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
