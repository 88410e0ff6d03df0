/// Resource limits that keep a hostile or broken file from exhausting the stack, memory or time.
///
/// System libyaml 0.2.5 has no nesting limit and its scanner slows down quadratically with flow
/// depth, and aliases can expand a small file exponentially ("billion laughs"), so the composer
/// enforces both limits as events stream in, before anything deep or large is built.
public struct YAMLLimits: Sendable, Hashable {
    /// The deepest nesting of sequences and mappings allowed.
    public var maxDepth: Int
    /// The most nodes a document may hold once every alias is expanded.
    public var maxExpandedNodes: Int

    /// Creates limits from their parts.
    public init(maxDepth: Int, maxExpandedNodes: Int) {
        self.maxDepth = maxDepth
        self.maxExpandedNodes = maxExpandedNodes
    }

    /// 256 levels and 100,000 expanded nodes: far above any hand-written rules file.
    public static let `default` = YAMLLimits(maxDepth: 256, maxExpandedNodes: 100_000)
}
