extension Node {
    /// One key/value entry of a mapping; both keep their own locations for diagnostics.
    public struct Pair: Sendable, Hashable {
        /// The key node (usually a scalar).
        public var key: Node
        /// The value node.
        public var value: Node

        /// Creates a pair.
        public init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }
}
