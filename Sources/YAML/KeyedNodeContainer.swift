import Suggestions

/// The keyed container over a mapping node; it records every key the decoded type asks about.
struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder of the mapping itself.
    private let decoder: NodeDecoder
    /// The mapping's pairs by scalar key.
    private let pairs: [String: Node.Pair]

    /// Opens the container, rejecting non-mappings and non-scalar keys at their location.
    init(decoder: NodeDecoder) throws(YAMLError) {
        guard case .mapping(let list) = decoder.node.content else {
            throw ScalarRules.mismatch(decoder.node, expected: "a mapping")
        }
        var pairs: [String: Node.Pair] = [:]
        for pair in list {
            guard let key = pair.key.scalar else {
                throw YAMLError("expected a scalar key, found a collection", at: pair.key.location)
            }
            pairs[key] = pair
        }
        self.decoder = decoder
        self.pairs = pairs
        decoder.context.visit(decoder.node, at: decoder.codingPath)
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        guard case .mapping(let list) = decoder.node.content else { return [] }
        return list.compactMap { $0.key.scalar.flatMap(Key.init(stringValue:)) }
    }

    func contains(_ key: Key) -> Bool {
        decoder.context.ask(key.stringValue, at: codingPath)
        return pairs[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try value(forKey: key).node.isNull
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try value(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try value(forKey: key)
    }

    /// Decodes the value for `key` with errors located at it.
    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws(YAMLError) -> T {
        try decoder.context.decode(type, with: try value(forKey: key))
    }

    /// The decoder for `key`'s value; a missing key is reported at the mapping, with a note at a
    /// key that looks like a misspelling of it.
    private func value(forKey key: Key) throws(YAMLError) -> NodeDecoder {
        let name = key.stringValue
        decoder.context.ask(name, at: codingPath)
        if let pair = pairs[name] { return decoder.child(pair.value, key: key) }
        let known = decoder.context.asked(at: codingPath).union(Self.declaredKeys())
        let unknown = pairs.keys.filter { !known.contains($0) }
        var notes: [Diagnostic] = []
        if let typo = Suggestion.closest(to: name, among: unknown), let pair = pairs[typo] {
            notes.append(.note("'\(typo)' is not a known key; did you mean '\(name)'?", at: pair.key.location))
        }
        throw YAMLError("missing required key '\(name)'", at: decoder.node.location, notes: notes)
    }

    /// Every key the type declares, when its `CodingKeys` are `CaseIterable`.
    private static func declaredKeys() -> Set<String> {
        guard let iterable = Key.self as? any CaseIterable.Type else { return [] }
        return names(of: iterable)
    }

    /// The string values of a `CaseIterable` key type's cases.
    private static func names<T: CaseIterable>(of type: T.Type) -> Set<String> {
        Set(T.allCases.compactMap { ($0 as? any CodingKey)?.stringValue })
    }
}
