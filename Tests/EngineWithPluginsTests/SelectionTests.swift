import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// An item whose `state` passed a rule's selection is decided without the conditions that pinned
/// it; these rules pin it in ways where dropping the wrong condition changes the plan.
@Suite struct SelectionTests {
    /// Open and closed issues 1-8, odd ones idle for 90 days, even ones for a day; 7 and 8 are
    /// labelled `keep`.
    private func state() throws -> ForgeState {
        let issues = (1...8).map { number in
            GitbayKit.Issue(
                number: number, title: "Issue \(number)", state: number <= 4 ? .open : .closed, author: "alice",
                labels: number >= 7 ? ["keep"] : [], createdAt: now - 200 * 86_400,
                updatedAt: now - (number % 2 == 1 ? 90 : 1) * 86_400)
        }
        return try forge(issues: issues)
    }

    private func matched(_ when: String) throws -> (numbers: [Int], considered: Int) {
        let yaml = """
            scope: owner:krz
            rules:
              - name: r
                on: issues
                when:
            \(when)
                do:
                  - add-label: seen
            """
        let plan = Evaluator(registry: registry).plan(rules: try rules(yaml), state: try state(), source: "t")
        return (plan.entries.map(\.item.number), plan.rules[0].considered)
    }

    @Test func twoPinsNarrowToTheirCommonValue() throws {
        let result = try matched(
            """
                  - state in [open, closed]
                  - state = open
                  - idle > 60d
            """)
        #expect(result.numbers == [1, 3])
        #expect(result.considered == 4)
    }

    @Test func aNegatedOrNestedConditionOnTheFieldIsStillDecided() throws {
        #expect(
            try matched(
                """
                      - state in [open, closed]
                      - not: state = closed
                      - idle > 60d
                """
            ).numbers == [1, 3])
        #expect(
            try matched(
                """
                      - state in [open, closed]
                      - state != closed
                """
            ).numbers == [1, 2, 3, 4])
        #expect(
            try matched(
                """
                      - state in [open, closed]
                      - any:
                          - state = closed
                          - labels has keep
                """
            ).numbers == [5, 6, 7, 8])
    }

    @Test func onlyThePinningConditionsAreDropped() throws {
        let rule = try #require(
            try rules(
                """
                scope: owner:krz
                rules:
                  - name: r
                    on: issues
                    when:
                      - state = open
                      - idle > 60d
                      - state != closed
                      - all:
                          - state in [open]
                    do:
                      - add-label: seen
                """
            ).first)
        let remaining = rule.condition.removingRequirements(on: "state").tests.map(\.expression.text)
        #expect(remaining == ["idle > 60d", "state != closed", "state in [open]"])
    }
}
