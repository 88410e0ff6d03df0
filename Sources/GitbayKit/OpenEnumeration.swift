/// A string enumeration from the wire whose value set may grow: unknown values are kept, not refused.
///
/// A newer gitbay may add a build status or a review verdict; failing a whole listing on one new word
/// would stop the bot, so each such type is a `RawRepresentable` struct with static known values,
/// and an unknown value decodes and encodes back unchanged.
public protocol OpenEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String, StringLiteralType == String {
    /// Wraps any raw value, known or not.
    init(rawValue: String)

    /// The values this library knows about, in the order gitbay documents them.
    static var knownValues: [Self] { get }
}

extension OpenEnumeration {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public var description: String { rawValue }

    /// Whether the value is one this library knows; `false` for a value a newer server introduced.
    public var isKnown: Bool { Self.knownValues.contains(self) }
}
