extension Decoder {
    /// The node this decoder reads when it belongs to ``YAMLDecoder``, for custom `init(from:)`.
    public var yamlNode: Node? {
        (self as? NodeDecoder)?.node
    }

    /// An error for a custom `init(from:)` to throw, located at the node being decoded or at a
    /// character inside it (`offset` Unicode scalars into a single-line scalar).
    ///
    /// With ``YAMLDecoder`` this is a ``YAMLError`` that passes through unchanged; with any other
    /// decoder it is a `DecodingError.dataCorrupted` carrying the coding path.
    public func yamlError(_ message: String, atScalarOffset offset: Int? = nil) -> any Error {
        guard let node = yamlNode else {
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
        }
        return YAMLError(message, at: offset.map(node.location(ofScalarOffset:)) ?? node.location)
    }
}
