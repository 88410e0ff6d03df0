import YAML

/// One rule test as written (`docs/commands/test.md`), decoded strictly: unknown keys are errors,
/// and every value keeps its place so a wrong one is reported at its line and column.
struct RuleTestFile: Decodable {
    /// Listed so a "missing key" note never calls a real key that was not read yet unknown.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, forge, rules, now, scope, bots, writers, expect
    }

    /// What the test is about, for the people reading it.
    var description: String?
    /// The forge-state file to evaluate against, relative to the test file.
    var forge: Located<String>
    /// Rule files or folders, relative to the test file.
    var rules: [Located<String>]
    /// The clock to evaluate at; the forge file's `now` when absent.
    var now: Located<String>?
    /// A scope replacing every rule's own, as `--scope` does.
    var scope: Located<String>?
    /// The accounts whose comments are automation, as `bots:` in gitbay-bot.yml says.
    var bots: [Located<String>]?
    /// Who may give commands `allowed: [writers]`, as `writers:` in gitbay-bot.yml says.
    var writers: [Located<String>]?
    /// Every plan entry with pending actions the rules must produce, and no others.
    var expect: [Expectation]

    /// One expected plan entry: a rule acting on an item with these pending actions, in order.
    struct Expectation: Decodable {
        /// Listed so a "missing key" note never calls a real key that was not read yet unknown.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case rule, item, actions
        }

        var rule: Located<String>
        var item: Located<String>
        var actions: [Located<String>]
    }
}
