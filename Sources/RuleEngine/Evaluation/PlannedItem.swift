import Foundation

/// The item a plan entry acts on, as people and tools refer to it.
public struct PlannedItem: Sendable, Hashable, Codable {
    /// `owner/name`.
    public var repository: String
    public var kind: ItemKind
    public var number: Int
    public var title: String
    /// `owner/name#12`, `owner/name!12` or `owner/name/builds/4213`.
    public var reference: String
    /// The item's last update as read when planning (issues and merge requests), which `apply`
    /// needs because `issue show` does not carry it.
    public var updatedAt: Date?

    public init(
        repository: String, kind: ItemKind, number: Int, title: String, reference: String, updatedAt: Date? = nil
    ) {
        self.repository = repository
        self.kind = kind
        self.number = number
        self.title = title
        self.reference = reference
        self.updatedAt = updatedAt
    }
}
