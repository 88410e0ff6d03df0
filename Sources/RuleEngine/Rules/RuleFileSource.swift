import YAML

/// A rule file as written, decoded strictly: unknown keys are errors, every value keeps its place.
///
/// Conditions and actions stay YAML nodes here, because their meaning depends on the item kind
/// and the plugins; ``RuleCompiler`` turns them into checked rules.
struct RuleFileSource: Decodable {
    /// Listed so a "missing key" note never calls a real key that was not read yet unknown.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case scope, extends, disable, rules
    }

    var scope: Located<String>?
    /// The file this one builds on (`owner/name:path`, optionally `@ref`): a repository's own rules
    /// only; read by ``RepositoryRuleChain``, checked here for its type.
    var extends: Located<String>?
    /// Rules of the files this one extends that it switches off, by name.
    var disable: [Located<String>]?
    /// Each rule stays a node until it is decoded on its own, so a mistake in one rule does not
    /// hide the mistakes in the others.
    ///
    /// Required, but for a file that extends another.
    var rules: [Node]

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        scope = try keys.decodeIfPresent(Located<String>.self, forKey: .scope)
        extends = try keys.decodeIfPresent(Located<String>.self, forKey: .extends)
        disable = try keys.decodeIfPresent([Located<String>].self, forKey: .disable)
        rules =
            extends == nil
            ? try keys.decode([Node].self, forKey: .rules) : try keys.decodeIfPresent([Node].self, forKey: .rules) ?? []
    }

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
