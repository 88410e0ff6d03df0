/// How one condition fared on one item: what was observed and whether it held.
///
/// Plans carry these as the reason for each action, and `explain` prints them for every rule.
public struct ConditionResult: Sendable, Hashable, Codable {
    /// The condition as written, such as `idle > 60d`.
    public var condition: String
    /// The field it tests.
    public var field: String
    /// The field's value as people read it (`61d 3h`, `[bug, stale]`, `(none)`), or `(not read)`.
    public var observed: String
    /// Whether it held; `nil` when the value was not read yet.
    public var holds: Bool?
    /// Where the condition is written, as `file:line:column`.
    public var location: String

    public init(condition: String, field: String, observed: String, holds: Bool?, location: String) {
        self.condition = condition
        self.field = field
        self.observed = observed
        self.holds = holds
        self.location = location
    }
}
