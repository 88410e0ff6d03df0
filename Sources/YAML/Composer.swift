/// Turns the event stream into one ``Node`` tree, enforcing the safety rules as events arrive.
///
/// Depth, expansion size and the single-document rule are checked on each event, so a hostile
/// file stops libyaml at the offending event instead of after it has scanned everything.
struct Composer {
    /// The file name for locations.
    private let file: String
    /// The limits to enforce.
    private let limits: YAMLLimits
    /// The decoded source, for the raw text of single-line scalars.
    private let source: SourceText
    /// Open collections, innermost last.
    private var stack: [CollectionFrame] = []
    /// Completed anchored nodes with their expanded sizes; later definitions shadow earlier ones.
    private var anchors: [String: (node: Node, size: Int)] = [:]
    /// Documents seen so far.
    private var documents = 0
    /// Nodes in the document so far, counting every alias as the nodes it expands to.
    private var expandedNodes = 0
    /// The finished document root.
    private(set) var root: Node?

    /// Prepares to compose `bytes`, which are decoded once for scalar spans.
    init(bytes: [UInt8], file: String, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
        self.source = SourceText(bytes: bytes)
    }

    /// Applies one event.
    mutating func consume(_ event: Event) throws(YAMLError) {
        switch event {
        case .documentStart(let start):
            documents += 1
            if documents > 1 {
                throw YAMLError("a second YAML document is not allowed; a file holds exactly one document", at: start)
            }
        case .documentEnd:
            break
        case .alias(let name, let at):
            try alias(name, at: at)
        case .scalar(let value, let anchor, let tag, let style, let start, let end):
            try count(1, at: start, alias: nil)
            let node = Node(.scalar(value, style), tag: tag, location: start, span: span(style, start, end))
            if let anchor { anchors[anchor] = (node, 1) }
            try complete(node, size: 1)
        case .sequenceStart(let anchor, let tag, let start):
            try open(CollectionFrame(isMapping: false, anchor: anchor, tag: tag, start: start))
        case .mappingStart(let anchor, let tag, let start):
            try open(CollectionFrame(isMapping: true, anchor: anchor, tag: tag, start: start))
        case .sequenceEnd, .mappingEnd:
            guard let frame = stack.popLast() else { return }
            let node = frame.node()
            if let anchor = frame.anchor { anchors[anchor] = (node, frame.expandedSize) }
            try complete(node, size: frame.expandedSize)
        }
    }

    /// The composed document; an empty stream or an empty document is an empty mapping at 1:1.
    func document() -> Node {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root else { return Node(.mapping([]), location: start) }
        if root.tag == nil, case .scalar("", .plain) = root.content {
            return Node(.mapping([]), location: root.location)
        }
        return root
    }

    /// Replaces a parser note that only repeats the error's own place with where the innermost
    /// open collection starts.
    ///
    /// libyaml gives "while parsing a flow node" at the very spot of the error (at the end of the
    /// file for an unclosed `[a,`), which tells nothing; the `[` or `{` left open does. Scanner
    /// notes ("while scanning ...") name the token being read, so they stay.
    func pointingAtOpenCollection(_ error: YAMLError) -> YAMLError {
        guard let open = stack.last else { return error }
        var result = error
        for index in result.diagnostics.indices {
            let diagnostic = result.diagnostics[index]
            for (noteIndex, note) in diagnostic.notes.enumerated()
            where note.location == diagnostic.location && note.message.hasPrefix("while parsing") {
                let kind = open.isMapping ? "mapping" : "list"
                result.diagnostics[index].notes[noteIndex] = .note(
                    "while parsing the \(kind) that starts here", at: open.start)
            }
        }
        return result
    }

    /// Opens a collection after checking the nesting limit.
    private mutating func open(_ frame: CollectionFrame) throws(YAMLError) {
        guard stack.count < limits.maxDepth else {
            throw YAMLError("nesting deeper than \(limits.maxDepth) levels", at: frame.start)
        }
        try count(1, at: frame.start, alias: nil)
        stack.append(frame)
    }

    /// Resolves an alias to a copy of its anchored node, charging its full expanded size.
    private mutating func alias(_ name: String, at location: SourceLocation) throws(YAMLError) {
        if stack.contains(where: { $0.anchor == name }) {
            throw YAMLError("alias '*\(name)' refers to a node that contains it", at: location)
        }
        guard let anchored = anchors[name] else {
            throw YAMLError("unknown anchor '\(name)'", at: location)
        }
        try count(anchored.size, at: location, alias: name)
        try complete(anchored.node, size: anchored.size)
    }

    /// Charges `size` expanded nodes against the document budget.
    private mutating func count(_ size: Int, at location: SourceLocation, alias: String?) throws(YAMLError) {
        expandedNodes += size
        guard expandedNodes > limits.maxExpandedNodes else { return }
        let limit = limits.maxExpandedNodes
        if let alias {
            throw YAMLError("alias '*\(alias)' expands the document beyond \(limit) nodes", at: location)
        }
        throw YAMLError("the document has more than \(limit) nodes", at: location)
    }

    /// Hands a finished node to its parent, or makes it the root.
    private mutating func complete(_ node: Node, size: Int) throws(YAMLError) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        try stack[stack.count - 1].add(node, expandedSize: size)
    }

    /// The raw source of a flow scalar that starts and ends on one line.
    private func span(_ style: ScalarStyle, _ start: SourceLocation, _ end: SourceLocation) -> ScalarSpan? {
        guard style == .plain || style == .singleQuoted || style == .doubleQuoted, start.line == end.line,
            let line = source.line(start.line), start.column <= end.column, end.column - 1 <= line.count
        else { return nil }
        return ScalarSpan(raw: Array(line[(start.column - 1)..<(end.column - 1)]), style: style, start: start)
    }
}
