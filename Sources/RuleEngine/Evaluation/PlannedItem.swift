/// The item a plan entry acts on, as people and tools refer to it.
public struct PlannedItem: Sendable, Hashable, Codable {
    /// `owner/name`.
    public var repository: String
    public var kind: ItemKind
    public var number: Int
    public var title: String
    /// `owner/name#12`, `owner/name!12` or `owner/name/builds/4213`.
    public var reference: String

    public init(repository: String, kind: ItemKind, number: Int, title: String, reference: String) {
        self.repository = repository
        self.kind = kind
        self.number = number
        self.title = title
        self.reference = reference
    }
}
