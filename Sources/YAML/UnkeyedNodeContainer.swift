/// The unkeyed container over a sequence node.
struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    /// The decoder of the sequence itself.
    private let decoder: NodeDecoder
    /// The sequence's items.
    private let items: [Node]
    /// The next item to decode.
    private(set) var currentIndex = 0

    /// Opens the container, rejecting anything but a sequence at its location.
    init(decoder: NodeDecoder) throws(YAMLError) {
        guard case .sequence(let items) = decoder.node.content else {
            throw ScalarRules.mismatch(decoder.node, expected: "a list")
        }
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func decodeNil() throws -> Bool {
        guard try next(peek: true).node.isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeNext(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(peek: false).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next(peek: false).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(peek: false)
    }

    /// Decodes the next item with errors located at it.
    private mutating func decodeNext<T: Decodable>(_ type: T.Type) throws(YAMLError) -> T {
        try decoder.context.decode(type, with: try next(peek: false))
    }

    /// The decoder for the current item, advancing unless `peek`; past the end is an error at the list.
    private mutating func next(peek: Bool) throws(YAMLError) -> NodeDecoder {
        guard !isAtEnd else {
            throw YAMLError("expected another item in this list", at: decoder.node.location)
        }
        let child = decoder.child(items[currentIndex], key: IndexKey(currentIndex))
        if !peek { currentIndex += 1 }
        return child
    }
}
