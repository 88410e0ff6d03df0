/// The entry point for reading YAML source into located nodes.
public enum YAML {
    /// Composes a single-document YAML file into a ``Node``, or throws located diagnostics.
    ///
    /// - Parameters:
    ///   - bytes: the raw file contents. Pass them undecoded: libyaml detects UTF-8 and UTF-16
    ///     from the byte-order mark and reports invalid UTF-8 at its position, which decoding to
    ///     `String` first would silently repair.
    ///   - file: the name used in every ``SourceLocation``.
    ///   - limits: nesting depth and alias-expansion budgets.
    /// - Returns: the document's root. A file with no document (empty, or only comments) and a
    ///   document with no content compose to an empty mapping located at the start, so missing
    ///   keys are still reported at a real position.
    /// - Throws: ``YAMLError`` for syntax and encoding errors, duplicate keys, unknown or recursive
    ///   aliases, bad merge values, exceeded limits, and a second document.
    public static func compose(bytes: [UInt8], file: String, limits: YAMLLimits = .default) throws(YAMLError) -> Node {
        var composer = Composer(bytes: bytes, file: file, limits: limits)
        do {
            try EventReader.read(bytes: bytes, file: file) { (event) throws(YAMLError) in
                try composer.consume(event)
            }
        } catch {
            throw composer.pointingAtOpenCollection(error)
        }
        return composer.document()
    }
}
