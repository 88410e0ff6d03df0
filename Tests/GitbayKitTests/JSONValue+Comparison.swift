import Foundation
import GitbayKit

/// Parsed JSON documents compared structurally, so encoded models can be checked against fixtures.
///
/// Key order and number spelling differ between encoders; comparing trees avoids false failures.
extension JSONValue {
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
