import Foundation

/// A parsed JSON document, compared structurally so encoded models can be checked against fixtures.
///
/// Key order and number spelling differ between encoders; comparing trees avoids false failures.
enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON bytes.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The document as JSON bytes.
    func data() throws -> Data {
        try JSONEncoder().encode(self)
    }

    /// The document with every object key in `keys` removed, at any depth.
    func removingKeys(_ keys: Set<String>) -> JSONValue {
        switch self {
        case .array(let values):
            .array(values.map { $0.removingKeys(keys) })
        case .object(let members):
            .object(members.filter { !keys.contains($0.key) }.mapValues { $0.removingKeys(keys) })
        default:
            self
        }
    }

    /// Every object key used anywhere in the document.
    var allKeys: Set<String> {
        switch self {
        case .array(let values):
            values.reduce(into: Set<String>()) { $0.formUnion($1.allKeys) }
        case .object(let members):
            members.reduce(into: Set(members.keys)) { $0.formUnion($1.value.allKeys) }
        default:
            []
        }
    }
}
