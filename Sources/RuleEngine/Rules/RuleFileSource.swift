import YAML

/// A rule file as written, decoded strictly: unknown keys are errors, every value keeps its place.
///
/// Conditions and actions stay YAML nodes here, because their meaning depends on the item kind
/// and the plugins; ``RuleCompiler`` turns them into checked rules.
struct RuleFileSource: Decodable {
    /// Listed so a "missing key" note never calls a real key that was not read yet unknown.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case scope, rules
    }

    var scope: Located<String>?
    /// Each rule stays a node until it is decoded on its own, so a mistake in one rule does not
    /// hide the mistakes in the others.
    var rules: [Node]

    struct RuleSource: Decodable {
        /// Listed so a "missing key" note never calls a real key that was not read yet unknown.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, description, on, command, allowed, limit, scope, schedule, when, `do`
        }

        var name: Located<String>
        var description: String?
        var on: Located<String>
        /// The command pattern (`/merge [strategy: ff|merge]`), checked by ``RuleCompiler``.
        var command: Located<String>?
        /// Who may give the command: a name or a list, kept as written until checked.
        var allowed: Node?
        var limit: Located<Int>?
        var scope: Located<String>?
        var schedule: ScheduleSource?
        var when: Node?
        var `do`: Node
    }
}
