/// A kind of item rules act on, named as a rule's `on:` names it (`issues`).
///
/// Kinds belong to the plugins that declare them (``ItemKindDefinition``), which also give them
/// their Swift names (`ItemKind.issues` comes from the Issues plugin); the engine knows none.
public struct ItemKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
