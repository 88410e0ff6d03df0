import BuiltinPlugins
import GitbayKit
import RuleEngine
import Testing
import YAML

/// A repository's own rule and the operator's rule of the same name, on the same issue, keep
/// apart: two entries, two markers, and `comment_age` of each counting from its own notices.
@Suite struct RepositoryRuleNamingTests {
    private static let operatorRules = """
        scope: owner:krz
        rules:
          - name: stale
            on: issues
            when: [state = open]
            do: [{comment: "Operator notice."}]

        """

    /// The repository's `stale` follows up its own notice after a week.
    private static let repositoryRules = """
        rules:
          - name: stale
            on: issues
            when: [state = open]
            do: [{comment: "Repository notice."}]
          - name: follow-up
            on: issues
            when: [comment_age.stale > 7d]
            do: [{comment: "Still stale after {{ comment_age.stale }}."}]

        """

    private func rules() throws -> [Rule] {
        let operatorSet = RuleSet.load(
            files: [("rules.yml", Array(Self.operatorRules.utf8))], registry: Fixtures.registry)
        let repositorySet = RuleSet.load(
            files: [(".gitbay/bot.yml", Array(Self.repositoryRules.utf8))], registry: Fixtures.registry,
            confinement: RepositoryConfinement(repository: Fixtures.path))
        #expect(operatorSet.diagnostics.isEmpty && repositorySet.diagnostics.isEmpty)
        return operatorSet.rules + repositorySet.rules
    }

    private func plan(_ comments: [GitbayKit.Comment]) throws -> Plan {
        let repository = Fixtures.context(Fixtures.issue(comments: comments)).repository
        let state = ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
        return Evaluator(registry: Fixtures.registry).plan(rules: try rules(), state: state, source: "test")
    }

    @Test func theRepositorysRulesAreNamedAfterItAndSoAreTheirMarkers() throws {
        let plan = try plan([])
        #expect(plan.entries.map(\.rule) == ["stale", "krz/gitbay:stale"])
        #expect(
            plan.entries.map(\.marker) == [
                "<!-- gitbay-bot:rule=stale item=krz/gitbay#188 -->",
                "<!-- gitbay-bot:rule=krz/gitbay:stale item=krz/gitbay#188 -->",
            ])
    }

    /// The operator's notice ten days ago is not the repository rule's: its follow-up waits for
    /// its own, and counts from it once there.
    @Test func commentAgeInARepositorysRuleCountsFromThatRepositorysNotices() throws {
        let operatorNotice = Fixtures.comment(
            Fixtures.me, "Operator notice.\n<!-- gitbay-bot:rule=stale item=krz/gitbay#188 -->", daysAgo: 10)
        #expect(try plan([operatorNotice]).entries.map(\.rule).contains("krz/gitbay:follow-up") == false)
        let ownNotice = Fixtures.comment(
            Fixtures.me, "Repository notice.\n<!-- gitbay-bot:rule=krz/gitbay:stale item=krz/gitbay#188 -->",
            daysAgo: 9)
        let followUp = try #require(
            try plan([operatorNotice, ownNotice]).entries.first { $0.rule == "krz/gitbay:follow-up" })
        #expect(followUp.precondition == .all([.condition("comment_age.krz/gitbay:stale > 7d")]))
        #expect(
            followUp.actions.map { MarkedComments.text(of: $0.argument ?? .none) } == [
                "Still stale after 9 days."
            ])
    }
}
