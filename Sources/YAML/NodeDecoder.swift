/// The `Decoder` over one ``Node``; it is also that node's single-value container.
struct NodeDecoder: Decoder, SingleValueDecodingContainer {
    /// The node being decoded.
    let node: Node
    /// The keys and indices from the root to `node`.
    let codingPath: [any CodingKey]
    /// The state shared by the whole decode.
    let context: DecodingContext

    /// No user info: configuration belongs in the decoded types, not in ambient state.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder for a child node one key or index deeper.
    func child(_ node: Node, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], context: context)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedNodeContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedNodeContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try ScalarRules.bool(node) }
    func decode(_ type: String.Type) throws -> String { try ScalarRules.string(node) }
    func decode(_ type: Double.Type) throws -> Double { try ScalarRules.float(node, as: type) }
    func decode(_ type: Float.Type) throws -> Float { try ScalarRules.float(node, as: type) }
    func decode(_ type: Int.Type) throws -> Int { try ScalarRules.integer(node, as: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try ScalarRules.integer(node, as: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ScalarRules.integer(node, as: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ScalarRules.integer(node, as: type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.decode(type, with: self) }
}
