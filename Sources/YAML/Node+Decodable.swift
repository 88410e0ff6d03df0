extension Node: Decodable {
    /// Takes the raw node, for parts of a file a later stage interprets itself.
    ///
    /// Useful for a condition expression tree; its keys are not checked for unknown names.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? NodeDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Node needs YAMLDecoder")
            )
        }
        self = decoder.node
    }
}
