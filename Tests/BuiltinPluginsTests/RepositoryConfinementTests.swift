import BuiltinPlugins
import GitbayKit
import RuleEngine
import Testing
import YAML

/// A repository's own rules file (`.gitbay/bot.yml`) acts on its repository only, with the actions
/// the operator allows: anything else is an error at its place, and the file's rules are not used.
@Suite struct RepositoryConfinementTests {
    private static let file = ".gitbay/bot.yml"

    private func load(_ text: String, forbidding forbidden: Set<String> = []) throws -> RuleSet {
        let confinement = RepositoryConfinement(
            repository: try RepositoryPath("krz/app"), forbiddenActions: forbidden)
        return RuleSet.load(
            files: [(Self.file, Array(text.utf8))], registry: Fixtures.registry,
            scopeOverride: try RuleScope(parsing: "owner:elsewhere"), confinement: confinement)
    }

    @Test func aRuleWithoutScopeActsOnItsRepositoryWhateverTheOverride() throws {
        let set = try load("rules:\n  - name: stale\n    on: issues\n    when: [state = open]\n    do: [close]\n")
        #expect(set.diagnostics.isEmpty)
        #expect(set.rules.map(\.scope.description) == ["repo:krz/app"])
    }

    @Test func itsOwnRepositoryMayBeWrittenOnTheFileOrTheRule() throws {
        let onFile = try load(
            "scope: repo:krz/app\nrules:\n  - name: a\n    on: issues\n    when: [state = open]\n    do: [close]\n")
        let onRule = try load(
            "rules:\n  - name: a\n    on: issues\n    scope: repo:krz/app repo:krz/app\n    do: [close]\n")
        #expect(onFile.diagnostics.isEmpty && onRule.diagnostics.isEmpty)
        #expect((onFile.rules + onRule.rules).map(\.scope.description) == ["repo:krz/app", "repo:krz/app"])
    }

    @Test(arguments: ["owner:krz", "repo:krz/other", "repo:krz/*", "repo:krz/app owner:krz"])
    func aScopeReachingFurtherIsAnErrorAtItsPlaceAndTheOtherRulesAreChecked(scope: String) throws {
        let set = try load(
            "rules:\n  - name: a\n    on: issues\n    scope: \(scope)\n    do: [close]\n"
                + "  - name: b\n    on: issues\n    do: [close]\n")
        #expect(
            set.diagnostics.map(\.description) == [
                "\(Self.file):4:12: error: a repository's own rules act on krz/app only, and '\(scope)' names "
                    + "others (leave 'scope:' out, or write 'repo:krz/app')"
            ])
        #expect(set.rules.map(\.name) == ["krz/app:b"], "the refused rule waits alone; the others act")
    }

    @Test func aFileScopeReachingFurtherIsSaidOnceAtTheFile() throws {
        let set = try load(
            "scope: owner:krz\nrules:\n  - name: a\n    on: issues\n    do: [close]\n"
                + "  - name: b\n    on: issues\n    do: [close]\n")
        #expect(set.diagnostics.map(\.location.description) == ["\(Self.file):1:8"])
        #expect(set.rules.isEmpty, "the file's own scope is every rule's: none acts")
    }

    @Test func anActionTheOperatorForbidsIsAnErrorAtTheAction() throws {
        let set = try load(
            "rules:\n  - name: a\n    on: merge_requests\n    do: [merge, {add-label: ok}]\n", forbidding: ["merge"])
        #expect(
            set.diagnostics.map(\.description) == [
                "\(Self.file):4:10: error: the operator forbids 'merge' in repository rules "
                    + "(repository_rules: forbid: in gitbay-bot.yml)"
            ])
        let allowed = try load(
            "rules:\n  - name: a\n    on: merge_requests\n    do: [merge, {add-label: ok}]\n", forbidding: ["close"])
        #expect(!allowed.hasErrors)
    }

    @Test func theOperatorsOwnFilesKeepTheirScopesAndTheOverride() throws {
        let set = RuleSet.load(
            files: [
                (
                    "rules.yml",
                    Array("rules:\n  - name: a\n    on: issues\n    scope: owner:krz\n    do: [close]\n".utf8)
                )
            ],
            registry: Fixtures.registry, scopeOverride: try RuleScope(parsing: "repo:krz/x"))
        #expect(set.rules.map(\.scope.description) == ["repo:krz/x"])
    }
}
