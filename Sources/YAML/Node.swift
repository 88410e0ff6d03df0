/// A composed YAML value with its source location: aliases are resolved and merge keys applied.
///
/// Nodes are plain values, so an alias shares storage with its anchor through copy-on-write
/// arrays and costs nothing to copy; the composer has already checked that expanding every alias
/// stays within ``YAMLLimits/maxExpandedNodes``.
public struct Node: Sendable, Hashable {
    /// The scalar, sequence or mapping this node holds.
    public var content: Content
    /// The resolved explicit tag (`!!str` arrives as `tag:yaml.org,2002:str`), or nil when none was written.
    public var tag: String?
    /// Where the node starts: the first character of a scalar, the `[`/`{` or first entry of a collection.
    ///
    /// A node reached through an alias (or merged in with `<<`) keeps the location of the anchored
    /// node, which is where its content was written.
    public var location: SourceLocation
    /// The scalar's source text, when it fits on one line, to locate characters inside it.
    var span: ScalarSpan?

    /// Creates a node; nodes built this way cannot locate characters inside a scalar precisely.
    public init(_ content: Content, tag: String? = nil, location: SourceLocation) {
        self.init(content, tag: tag, location: location, span: nil)
    }

    /// Creates a node with the source span the composer recorded.
    init(_ content: Content, tag: String?, location: SourceLocation, span: ScalarSpan?) {
        self.content = content
        self.tag = tag
        self.location = location
        self.span = span
    }

    /// The scalar's text, or nil for a collection.
    public var scalar: String? {
        if case .scalar(let value, _) = content { return value }
        return nil
    }

    /// Whether this is a YAML 1.2 null: a plain, untagged `null`/`Null`/`NULL`/`~` or an empty value.
    public var isNull: Bool {
        guard case .scalar(let value, let style) = content else { return false }
        if tag == CoreTag.null { return true }
        return style == .plain && tag == nil && CoreTag.nullSpellings.contains(value)
    }

    /// The location of the character `offset` Unicode scalars into the scalar's value.
    ///
    /// Exact for plain, single-quoted and double-quoted scalars written on one line (quotes,
    /// doubled `''` and backslash escapes are accounted for); any other node answers its start,
    /// which is still the right line. Offsets past the end clamp to the end of the scalar.
    public func location(ofScalarOffset offset: Int) -> SourceLocation {
        guard let span, let value = scalar else { return location }
        return span.location(ofScalarOffset: offset, valueLength: value.unicodeScalars.count)
    }

    /// The location of the character at `index` in ``scalar``, for offsets found with String APIs.
    public func location(of index: String.Index) -> SourceLocation {
        guard let value = scalar else { return location }
        let scalars = value.unicodeScalars
        let clamped = min(max(index, scalars.startIndex), scalars.endIndex)
        return location(ofScalarOffset: scalars.distance(from: scalars.startIndex, to: clamped))
    }
}
