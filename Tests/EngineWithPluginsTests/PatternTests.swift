import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A plan compiles each `~=` pattern once and shares it across items and rules; these rules use
/// several patterns on the same items, so a pattern applied to the wrong condition shows.
@Suite struct PatternTests {
    private let titles = ["WIP: cursor", "Flaky timeout", "wip lowercase", "Docs", "Timeout in WIP"]

    private func state() throws -> ForgeState {
        let issues = titles.enumerated().map { offset, title in
            GitbayKit.Issue(
                number: offset + 1, title: title, state: .open, author: "alice", createdAt: now - 86_400,
                updatedAt: now - 86_400)
        }
        return try forge(issues: issues)
    }

    @Test func eachRuleMatchesWithItsOwnPatterns() throws {
        let yaml = """
            scope: owner:krz
            rules:
              - name: wip
                on: issues
                when:
                  - title ~= "^WIP"
                do:
                  - add-label: wip
              - name: timeouts-not-wip
                on: issues
                when:
                  - title ~= "(?i)timeout"
                  - title !~ "WIP"
                do:
                  - add-label: timeout
              - name: any-wip
                on: issues
                when:
                  - title ~= "(?i)wip"
                do:
                  - add-label: seen
            """
        let plan = Evaluator(registry: registry).plan(rules: try rules(yaml), state: try state(), source: "t")
        let matched = Dictionary(grouping: plan.entries, by: \.rule).mapValues { $0.map(\.item.number) }
        #expect(matched == ["wip": [1], "timeouts-not-wip": [2], "any-wip": [1, 3, 5]])
    }
}
