extension Node {
    /// What a node holds; mappings keep their pairs in source order, which a Dictionary would lose.
    public enum Content: Sendable, Hashable {
        /// A scalar's text (escapes already processed, NUL characters kept) and how it was written.
        case scalar(String, ScalarStyle)
        /// A sequence's items in order.
        case sequence([Node])
        /// A mapping's pairs in source order, with `<<` merges already applied.
        case mapping([Pair])
    }
}
