import Suggestions

/// State shared by every decoder and container of one ``YAMLDecoder/decode(_:from:)-(_,Node)`` call.
///
/// It is a class because Codable hands out containers by value, yet the unknown-key check needs
/// to see every key any of them looked up. It never leaves the synchronous decode call, so it is
/// deliberately not `Sendable`.
final class DecodingContext {
    /// What one keyed container saw: the mapping and the keys the decoded type asked about.
    private struct Visit {
        var mapping: Node
        var asked: Set<String>
    }

    /// The document root, for walking a `DecodingError`'s coding path back to a node.
    let root: Node
    /// Mappings opened as keyed containers, by coding path.
    private var visits: [String: Visit] = [:]
    /// The coding paths of values whose decoding failed and was gathered, not thrown
    /// (``abandon(_:)``).
    private var abandoned: [String] = []

    /// Starts a decode of `root`.
    init(root: Node) {
        self.root = root
    }

    /// Records that a keyed container was opened on `mapping` at `path`.
    func visit(_ mapping: Node, at path: [any CodingKey]) {
        let id = Self.id(path)
        if visits[id] == nil { visits[id] = Visit(mapping: mapping, asked: []) }
    }

    /// Records that the type being decoded asked for `key` in the mapping at `path`.
    func ask(_ key: String, at path: [any CodingKey]) {
        visits[Self.id(path)]?.asked.insert(key)
    }

    /// The keys asked about so far in the mapping at `path`.
    func asked(at path: [any CodingKey]) -> Set<String> {
        visits[Self.id(path)]?.asked ?? []
    }

    /// Records that decoding the value at `path` failed and the decode went on past it: the
    /// mappings in it were read only in part, so their keys are not judged unknown.
    func abandon(_ path: [any CodingKey]) {
        abandoned.append(Self.id(path))
    }

    /// One error per key that no decoded type asked for, except `x-` keys and those inside an
    /// abandoned value, in source order.
    func unknownKeys() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (id, visit) in visits
        where !abandoned.contains(where: { id == $0 || id.hasPrefix($0 + "\u{0}") }) {
            guard case .mapping(let pairs) = visit.mapping.content else { continue }
            for pair in pairs {
                guard let key = pair.key.scalar, !visit.asked.contains(key), !key.hasPrefix("x-") else { continue }
                var message = "unknown key '\(key)'"
                if let suggestion = Suggestion.closest(to: key, among: visit.asked) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.append(.error(message, at: pair.key.location))
            }
        }
        return diagnostics.sorted { $0.location < $1.location }
    }

    /// Decodes `T` through `decoder`, turning any error into a located ``YAMLError``.
    ///
    /// Errors are converted at the innermost boundary, where the node is known: a `YAMLError`
    /// passes through, a `DecodingError` is placed at the deepest node on its coding path, and any
    /// other error thrown by a custom `init(from:)` is placed at the node that init was reading.
    func decode<T: Decodable>(_ type: T.Type, with decoder: NodeDecoder) throws(YAMLError) -> T {
        do {
            return try T(from: decoder)
        } catch let error as YAMLError {
            throw error
        } catch let error as DecodingError {
            throw locate(error)
        } catch {
            throw YAMLError(String(describing: error), at: decoder.node.location)
        }
    }

    /// Places a `DecodingError` at the deepest node its coding path reaches.
    private func locate(_ error: DecodingError) -> YAMLError {
        switch error {
        case .keyNotFound(let key, let context):
            return YAMLError("missing required key '\(key.stringValue)'", at: node(at: context.codingPath).location)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return YAMLError(context.debugDescription, at: node(at: context.codingPath).location)
        @unknown default:
            return YAMLError(String(describing: error), at: root.location)
        }
    }

    /// The deepest node reachable from the root along `path`.
    private func node(at path: [any CodingKey]) -> Node {
        var current = root
        for key in path {
            switch current.content {
            case .mapping(let pairs):
                guard let pair = pairs.first(where: { $0.key.scalar == key.stringValue }) else { return current }
                current = pair.value
            case .sequence(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return current }
                current = items[index]
            case .scalar:
                return current
            }
        }
        return current
    }

    /// A dictionary key for a coding path.
    private static func id(_ path: [any CodingKey]) -> String {
        path.map(\.stringValue).joined(separator: "\u{0}")
    }
}
