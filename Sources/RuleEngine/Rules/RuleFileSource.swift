import YAML

/// A rule file as written, decoded strictly: unknown keys are errors, every value keeps its place.
///
/// Conditions and actions stay YAML nodes here, because their meaning depends on the item kind
/// and the plugins; ``RuleCompiler`` turns them into checked rules.
struct RuleFileSource: Decodable {
    var scope: Located<String>?
    var rules: [RuleSource]

    struct RuleSource: Decodable {
        var name: Located<String>
        var description: String?
        var on: Located<String>
        var limit: Located<Int>?
        var scope: Located<String>?
        var when: Node?
        var `do`: Node
    }
}
