/// Decodes `Decodable` types from YAML with YAML 1.2 core typing and located, strict errors.
///
/// Scalars are read according to the type asked for (see the module's typing rules: `NO` stays a
/// string, `yes` is not a `Bool`, `010` is ten), every error carries the location of the node it
/// is about, and keys no decoded type asked for are errors with a "did you mean" suggestion.
/// Keys starting `x-` are exempt, so users can park anchors (`x-defaults: &defaults {...}`).
public struct YAMLDecoder: Sendable {
    /// The limits used when decoding straight from bytes.
    public var limits: YAMLLimits

    /// Creates a decoder.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Decodes `type` from a composed node.
    ///
    /// - Throws: ``YAMLError`` with the first decoding error, or with one error per unknown key
    ///   (in source order) when everything else decoded.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from node: Node) throws(YAMLError) -> T {
        let (value, unknown) = try decodeWithUnknownKeys(type, from: node)
        guard unknown.isEmpty else { throw YAMLError(unknown) }
        return value
    }

    /// Decodes `type` and returns it with one error per unknown key (in source order), rather than
    /// throwing those, for a caller that reports them with the mistakes it gathered itself
    /// (``Swift/KeyedDecodingContainer/decodeIfPresent(_:forKey:gathering:)``), all in one pass.
    ///
    /// - Throws: ``YAMLError`` with the first decoding error not gathered.
    public func decodeWithUnknownKeys<T: Decodable>(
        _ type: T.Type = T.self, from node: Node
    ) throws(YAMLError) -> (value: T, unknownKeys: [Diagnostic]) {
        let context = DecodingContext(root: node)
        let value = try context.decode(type, with: NodeDecoder(node: node, codingPath: [], context: context))
        return (value, context.unknownKeys())
    }

    /// Composes and decodes a file's raw bytes; see ``YAML/compose(bytes:file:limits:)``.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self,
        from bytes: [UInt8],
        file: String
    ) throws(YAMLError) -> T {
        try decode(type, from: YAML.compose(bytes: bytes, file: file, limits: limits))
    }
}
