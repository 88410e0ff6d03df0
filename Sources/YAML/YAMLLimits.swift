/// Resource limits that keep a hostile or broken file from exhausting the stack, memory or time.
///
/// System libyaml 0.2.5 has no nesting limit and its scanner slows down quadratically with flow
/// depth, and aliases can expand a small file exponentially ("billion laughs"), so the composer
/// enforces both limits as events stream in, before anything deep or large is built.
public struct YAMLLimits: Sendable, Hashable {
    /// The highest depth limit honoured.
    ///
    /// Measured on 6.3.1: a 50,000-deep ``Node`` tree overflows the stack when it is released
    /// (Swift frees nested arrays recursively) and libyaml needs seconds to scan it; 10,000 levels
    /// still work. 1,000 keeps a wide margin for the recursive `Decodable` walk as well.
    public static let maxSupportedDepth = 1_000

    /// The deepest nesting of sequences and mappings allowed, at most ``maxSupportedDepth``.
    public var maxDepth: Int {
        didSet { maxDepth = min(maxDepth, Self.maxSupportedDepth) }
    }
    /// The most nodes a document may hold once every alias is expanded.
    public var maxExpandedNodes: Int

    /// Creates limits from their parts; a depth above ``maxSupportedDepth`` is lowered to it.
    public init(maxDepth: Int, maxExpandedNodes: Int) {
        self.maxDepth = min(maxDepth, Self.maxSupportedDepth)
        self.maxExpandedNodes = maxExpandedNodes
    }

    /// 256 levels and 100,000 expanded nodes: far above any hand-written rules file.
    public static let `default` = YAMLLimits(maxDepth: 256, maxExpandedNodes: 100_000)
}
