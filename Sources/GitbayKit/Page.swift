/// One page of a cursor-paged listing: `{"items":[...],"next":"..."}`.
///
/// `next` is omitted on the last page. `items` is documented as never null, but a `null` or missing
/// `items` decodes as empty rather than failing a whole run.
public struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
    /// The largest `--limit` gitbay accepts (`maxPageLimit` in `internal/control/cursor.go`).
    public static var maximumLimit: Int { 200 }

    public var items: [Item]
    public var next: String?

    public init(items: [Item], next: String? = nil) {
        self.items = items
        self.next = next
    }

    private enum CodingKeys: String, CodingKey {
        case items
        case next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decodeIfPresent([Item].self, forKey: .items) ?? []
        let cursor = try container.decodeIfPresent(String.self, forKey: .next)
        next = cursor?.isEmpty == true ? nil : cursor
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}

extension Page: Encodable where Item: Encodable {
    /// Writes the paged shape back, leaving `next` out on the last page as gitbay does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(next, forKey: .next)
    }
}
