import RuleEngine
import Testing

@testable import BotCLI

/// What `run` and `apply` print of what they did: every action done or not, but no more `held:`
/// lines per rule than a plan lists.
@Suite struct ApplyReportRenderingTests {
    @Test func heldActionsAreListedUpToTheCapAndCountedAfter() {
        var report = ApplyReport()
        report.outcomes =
            (1...8).map { number in
                ApplyOutcome(rule: "mark-stale", item: "krz/app#\(number)", action: "add-label", status: .held)
            } + [ApplyOutcome(rule: "close-stale", item: "krz/app#9", action: "close", status: .applied)]
        let text = ApplyReportRenderer.text(report)
        let held = text.split(separator: "\n").filter { $0.hasPrefix("held: mark-stale") }
        #expect(held.count == ApplyReportRenderer.heldListed)
        #expect(text.contains("held: 3 more actions of mark-stale, as above; every one: plan -o FILE\n"), "\(text)")
        #expect(text.contains("applied: close-stale close on krz/app#9\n"))
        #expect(text.hasSuffix("1 applied, 8 held\n"), "\(text)")
    }
}
