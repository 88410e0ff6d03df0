import Foundation
import GitbayKit
import Testing

@testable import RuleEngine

/// An entry of `rule` on issue `number` with `commands` actions the cap held (or pending), on
/// `comment`'s command when one is given.
private func entry(
    _ rule: String, _ number: Int, commands: Int, held: Bool = true, comment: Int? = nil
) -> PlanEntry {
    let note = Evaluator.capNote(maxActions: 4, reserved: 0)
    let actions = (0..<commands).map { index in
        PlannedAction(
            action: "a\(index)", status: held ? .held : .pending,
            command: ControlCommand(argv: ["issue", "close", "krz/app", "\(number)"], effect: .write),
            note: held ? note : nil)
    }
    let item = PlannedItem(
        repository: "krz/app", kind: ItemKind(rawValue: "issues"), number: number, title: "t",
        reference: "krz/app#\(number)")
    return PlanEntry(
        rule: rule, item: item, reasons: [], actions: actions, precondition: .all([]),
        command: comment.map { PlannedCommand(comment: $0, author: "alice", text: "/go", line: 1, at: .now) })
}

/// Units the cap held take freed slots whole and in plan order: a comment's whole answer or
/// nothing of it, and none after the first that does not fit.
@Suite struct FreedSlotsTests {
    @Test func aCommentsAnswerIsTakenWholeOrNotAtAll() {
        // Issue 5's comment asks two things, one command each: two slots take both, one takes neither.
        for (free, released) in [(2, true), (1, false)] {
            var entries = [entry("first", 5, commands: 1, comment: 9), entry("second", 5, commands: 1, comment: 9)]
            var slots = FreedSlots()
            slots.settle(planned: free, sent: 0)
            let unit = PlanUnit.all(in: entries)[0]
            #expect(unit.entries == [0, 1])
            #expect(slots.release(unit, in: &entries) == (released ? 2 : 0))
            #expect(entries.allSatisfy { $0.hasPendingActions == released })
        }
    }

    @Test func theFirstHeldUnitThatDoesNotFitHoldsBackEveryLaterOne() {
        var entries = [entry("r", 1, commands: 2, held: false), entry("r", 2, commands: 3), entry("r", 3, commands: 1)]
        var slots = FreedSlots()
        let units = PlanUnit.all(in: entries)
        #expect(slots.release(units[0], in: &entries) == 2)
        // Nothing of issue 1 was sent: two slots are free, too few for issue 2's three commands,
        // and issue 3, which would fit, stays behind it, where the next run resumes.
        slots.settle(planned: 2, sent: 0)
        #expect(slots.release(units[1], in: &entries) == 0)
        #expect(slots.release(units[2], in: &entries) == 0)
        #expect(!entries[1].hasPendingActions && !entries[2].hasPendingActions)
        #expect(slots.free == 2)
        // An entry sent in part frees what it did not send.
        slots.settle(planned: 3, sent: 1)
        #expect(slots.free == 4)
    }
}
