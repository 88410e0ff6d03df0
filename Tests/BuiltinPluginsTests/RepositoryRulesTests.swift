import BuiltinPlugins
import Foundation
import GitbayKit
import RuleEngine
import Testing
import YAML

/// A repository's command rule and the operator's of the same command would both answer one
/// comment: the repository's file is then in error, where the operator's rule acts there.
@Suite struct RepositoryRulesTests {
    private static let repositoryFile = """
        rules:
          - name: label
            on: issues
            command: /label <labels:label>...
            do: [{add-label: "{{ command.labels }}"}]

        """

    private func operatorRules(scope: String, on kind: String = "issues") -> [Rule] {
        let text = """
            scope: \(scope)
            rules:
              - name: triage-label
                on: \(kind)
                command: /label <labels:label>...
                do: [{add-label: "{{ command.labels }}"}]

            """
        let set = RuleSet.load(files: [("rules.yml", Array(text.utf8))], registry: Fixtures.registry)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        return set.rules
    }

    private func load(beside operatorRules: [Rule]) async -> RepositoryRules {
        var repository = RepositoryState(path: Fixtures.path)
        repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(Self.repositoryFile))
        let state = ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
        return await RepositoryRules.load(
            state, policy: RepositoryRulesPolicy(), registry: Fixtures.registry, operatorRules: operatorRules)
    }

    @Test func aCommandTheOperatorAnswersThereIsAnErrorAtTheRepositorysRule() async {
        let loaded = await load(beside: operatorRules(scope: "owner:krz"))
        #expect(loaded.rules.isEmpty)
        #expect(
            loaded.broken.map { "\($0.error)" } == [
                "krz/gitbay:.gitbay/bot.yml:2:11: error: /label is already the command of the operator's rule "
                    + "'triage-label' for issues here; one comment would be answered by both (give this rule another "
                    + "command)"
            ])
    }

    @Test(arguments: [("repo:krz/other", "issues"), ("owner:krz", "merge_requests")])
    func anOperatorsCommandElsewhereOrOnAnotherKindLeavesItAlone(scope: String, kind: String) async {
        let loaded = await load(beside: operatorRules(scope: scope, on: kind))
        #expect(loaded.broken.isEmpty)
        #expect(loaded.rules.map(\.name) == ["krz/gitbay:label"])
    }

    /// The operator's `repository_rules: limit:` is the most a repository's rule acts on in a run:
    /// a higher `limit:` is lowered to it, and a rule without one gets it.
    @Test func theOperatorsLimitCapsEveryRepositoryRule() async {
        let file = """
            rules:
              - name: many
                on: issues
                limit: 500
                do: [{add-label: a}]
              - name: few
                on: issues
                limit: 2
                do: [{add-label: b}]
              - name: unbounded
                on: issues
                do: [{add-label: c}]

            """
        var repository = RepositoryState(path: Fixtures.path)
        repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(file))
        let state = ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
        let loaded = await RepositoryRules.load(
            state, policy: RepositoryRulesPolicy(maximumLimit: 5), registry: Fixtures.registry, operatorRules: [])
        #expect(loaded.rules.map(\.limit) == [5, 2, 5])
        #expect(loaded.rules.allSatisfy { $0.origin == Fixtures.path })
    }

    /// A rule the confinement refuses waits alone, with every rule that counts from its notices;
    /// an error of any other sort stops the whole file.
    @Test func aRefusedRuleWaitsWithWhatCountsFromItAndTheOthersAct() async {
        func load(_ file: String) async -> RepositoryRules {
            var repository = RepositoryState(path: Fixtures.path)
            repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(file))
            let state = ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
            return await RepositoryRules.load(
                state, policy: RepositoryRulesPolicy(forbidden: ["close"]), registry: Fixtures.registry,
                operatorRules: [])
        }
        let rules = """
            rules:
              - name: notice
                on: issues
                when: [state = open]
                do: [{comment: "closing soon"}, close]
              - name: after-notice
                on: issues
                when: [comment_age.notice > 1d]
                do: [{add-label: late}]
              - name: label
                on: issues
                do: [{add-label: seen}]

            """
        let refused = await load(rules)
        #expect(refused.rules.map(\.name) == ["krz/gitbay:label"])
        #expect(
            refused.sets[Fixtures.path]?.diagnostics.map(\.message) == [
                "the operator forbids 'close' in repository rules (repository_rules: forbid: in gitbay-bot.yml)",
                "rule 'after-notice' counts from the notices of 'notice', which is refused; it waits with it",
            ])
        #expect(refused.broken.count == 1, "the file still has an error, for the status and the note")
        let broken = await load(rules + "  - name: typo\n    on: isues\n    do: [close]\n")
        #expect(broken.rules.isEmpty, "an unknown kind is no refusal: the whole file waits")
    }
}
