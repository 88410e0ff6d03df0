/// The coding key for a sequence position, so coding paths through lists can be walked back to nodes.
struct IndexKey: CodingKey {
    /// The position in the sequence.
    let intValue: Int?

    /// `[n]`, which is how the position reads in a path.
    var stringValue: String { "[\(intValue ?? 0)]" }

    /// Creates the key for position `index`.
    init(_ index: Int) {
        intValue = index
    }

    /// Creates the key for position `intValue`.
    init(intValue: Int) {
        self.intValue = intValue
    }

    /// Index keys are never built from strings.
    init?(stringValue: String) {
        nil
    }
}
