/// A decoded value together with where it was written, for errors found after decoding.
///
/// Declare a field as `Located<String>` (or any `Located<T>`) and the rule layer can report
/// "label 'bug' does not exist" at the exact value, or at a character inside it with
/// ``location(ofScalarOffset:)``. Only ``YAMLDecoder`` can decode it, since only it knows locations.
public struct Located<Value> {
    /// The decoded value.
    public var value: Value
    /// Where the value starts in the source.
    public var location: SourceLocation
    /// The source node, when the value came from a single-line scalar, to locate characters inside it.
    private var scalarNode: Node?

    /// Wraps a value with a location, for values built in code or in tests.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
        self.scalarNode = nil
    }

    /// The location of the character `offset` Unicode scalars into the scalar this value was read
    /// from (through quotes and escapes); see ``Node/location(ofScalarOffset:)``.
    public func location(ofScalarOffset offset: Int) -> SourceLocation {
        scalarNode?.location(ofScalarOffset: offset) ?? location
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {
    /// Equal when the values and locations are; the recorded source node is a detail.
    public static func == (lhs: Located, rhs: Located) -> Bool {
        lhs.value == rhs.value && lhs.location == rhs.location
    }
}

extension Located: Hashable where Value: Hashable {
    /// Hashes the value and location, matching `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(location)
    }
}

extension Located: Decodable where Value: Decodable {
    /// Decodes the value and records its node; fails with any decoder but ``YAMLDecoder``.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? NodeDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Located needs YAMLDecoder")
            )
        }
        value = try decoder.context.decode(Value.self, with: decoder)
        location = decoder.node.location
        scalarNode = decoder.node.span == nil ? nil : decoder.node
    }
}
