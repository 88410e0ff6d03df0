/// A sequence or mapping the composer has opened but not yet closed.
///
/// The composer keeps these on an explicit stack instead of recursing, so its own stack use does
/// not grow with the file's nesting depth.
struct CollectionFrame {
    /// Whether the frame collects sequence items or mapping pairs.
    let isMapping: Bool
    /// The anchor written on the collection, registered when it closes.
    let anchor: String?
    /// The collection's explicit tag.
    let tag: String?
    /// Where the collection starts.
    let start: SourceLocation
    /// Nodes this collection holds once every alias is expanded, itself included.
    var expandedSize = 1
    /// A sequence's items so far.
    private var items: [Node] = []
    /// A mapping's explicit pairs so far.
    private var pairs: [Node.Pair] = []
    /// Pairs pulled in by `<<`, with the index in `pairs` they stand before.
    private var merges: [(position: Int, pairs: [Node.Pair])] = []
    /// A mapping key waiting for its value.
    private var pendingKey: Node?
    /// Where each explicit scalar key was first written, to report duplicates.
    private var seenKeys: [String: SourceLocation] = [:]

    /// Opens a frame.
    init(isMapping: Bool, anchor: String?, tag: String?, start: SourceLocation) {
        self.isMapping = isMapping
        self.anchor = anchor
        self.tag = tag
        self.start = start
    }

    /// Adds a completed child: an item, a key, or the value for the pending key.
    mutating func add(_ node: Node, expandedSize size: Int) throws(YAMLError) {
        expandedSize += size
        guard isMapping else {
            items.append(node)
            return
        }
        guard let key = pendingKey else {
            if let name = node.scalar {
                if let first = seenKeys[name] {
                    throw YAMLError(
                        "duplicate key '\(name)'",
                        at: node.location,
                        notes: [.note("first defined here", at: first)]
                    )
                }
                seenKeys[name] = node.location
            }
            pendingKey = node
            return
        }
        pendingKey = nil
        if Self.isMergeKey(key) {
            merges.append((pairs.count, try Self.mergedPairs(from: node)))
        } else {
            pairs.append(Node.Pair(key: key, value: node))
        }
    }

    /// The finished node: a sequence, or a mapping whose merged keys yield to explicit ones.
    func node() -> Node {
        guard isMapping else { return Node(.sequence(items), tag: tag, location: start) }
        let explicit = Set(pairs.compactMap(\.key.scalar))
        var merged: Set<String> = []
        var result: [Node.Pair] = []
        var nextMerge = 0
        for index in 0...pairs.count {
            while nextMerge < merges.count, merges[nextMerge].position == index {
                for pair in merges[nextMerge].pairs {
                    if let name = pair.key.scalar {
                        guard !explicit.contains(name), merged.insert(name).inserted else { continue }
                    }
                    result.append(pair)
                }
                nextMerge += 1
            }
            if index < pairs.count { result.append(pairs[index]) }
        }
        return Node(.mapping(result), tag: tag, location: start)
    }

    /// Whether `key` is `<<` written plain, or tagged `!!merge`.
    private static func isMergeKey(_ key: Node) -> Bool {
        guard case .scalar("<<", let style) = key.content else { return false }
        return key.tag == CoreTag.merge || (key.tag == nil && style == .plain)
    }

    /// The pairs a `<<` value contributes: one mapping's, or a list of mappings' in order.
    private static func mergedPairs(from value: Node) throws(YAMLError) -> [Node.Pair] {
        switch value.content {
        case .mapping(let pairs):
            return pairs
        case .sequence(let sources):
            var pairs: [Node.Pair] = []
            for source in sources {
                guard case .mapping(let more) = source.content else {
                    throw YAMLError("a '<<' merge list may only contain mappings", at: source.location)
                }
                pairs += more
            }
            return pairs
        case .scalar:
            throw YAMLError("the value of a '<<' merge key must be a mapping or a list of mappings", at: value.location)
        }
    }
}
