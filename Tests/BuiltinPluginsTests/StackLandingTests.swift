import BuildsPlugin
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct StackLandingTests {
    private let parentMerged = Fixtures.mergeRequest(
        number: 159, state: .merged, draft: false, source: "stack-1-reaper", headSHA: Fixtures.sha("4b"))

    private func landing(_ child: MergeRequest, others: [MergeRequest]) -> StackLanding? {
        StackLanding.derive(
            for: child, among: others.map { MergeRequestRecord(mergeRequest: $0, known: [.detail]) })
    }

    private func child(
        state: MergeRequestState = .open, targetRef: String = "main", comments: [GitbayKit.Comment]? = nil
    ) -> MergeRequest {
        Fixtures.mergeRequest(
            state: state, targetRef: targetRef,
            comments: comments ?? [Fixtures.system(Fixtures.retargeted, daysAgo: 1)])
    }

    @Test func landsWhenTheParentMergedAndTheChildWasRetargetedOntoItsTarget() throws {
        let landed = try #require(landing(child(), others: [parentMerged]))
        #expect(landed.parent == 159)
        #expect(landed.note == RetargetNote(from: "stack-1-reaper", to: "main", parent: 159, at: Fixtures.ago(days: 1)))
    }

    @Test func trustsTheServersNoteWhenTheParentIsNotListed() {
        #expect(landing(child(), others: [])?.parent == 159)
    }

    @Test(arguments: [MergeRequestState.open, .closed, .sourceGone])
    func doesNotLandWhileTheListedParentIsNotMerged(state: MergeRequestState) {
        var parent = parentMerged
        parent.state = state
        #expect(landing(child(), others: [parent]) == nil)
    }

    @Test func doesNotLandWhenRetargetedSince() {
        #expect(landing(child(targetRef: "release-1.38"), others: [parentMerged]) == nil)
    }

    @Test(arguments: [MergeRequestState.merged, .closed, .sourceGone])
    func doesNotLandUnlessTheChildIsOpen(state: MergeRequestState) {
        #expect(landing(child(state: state), others: [parentMerged]) == nil)
    }

    @Test func doesNotLandWhileStillStacked() {
        var stacked = child(targetRef: "stack-1-reaper", comments: [])
        stacked.stackedOn = MergeRequestRef(number: 159, title: "ci: reap abandoned builds")
        var parent = parentMerged
        parent.state = .open
        #expect(landing(stacked, others: [parent]) == nil)
    }

    @Test func aPersonQuotingTheNoteIsNotTheServer() {
        let quoted = child(comments: [Fixtures.comment("alice", Fixtures.retargeted, daysAgo: 1, kind: .comment)])
        #expect(landing(quoted, others: [parentMerged]) == nil)
    }

    @Test func anOldServerMarksTheNoteOnlyByItsAuthor() {
        let old = child(comments: [
            GitbayKit.Comment(author: "system", body: Fixtures.retargeted + "\n", createdAt: Fixtures.ago(days: 1))
        ])
        #expect(landing(old, others: [parentMerged])?.parent == 159)
    }

    @Test func theNewestNoteDecidesInATallStack() {
        let older = Fixtures.mergeRequest(number: 158, state: .merged, source: "stack-0-base")
        let tall = child(comments: [
            Fixtures.system("retargeted from stack-1-reaper to main: !159 merged", daysAgo: 1),
            Fixtures.system("retargeted from stack-0-base to stack-1-reaper: !158 merged", daysAgo: 3),
        ])
        #expect(landing(tall, others: [older, parentMerged])?.parent == 159)
        let midway = child(targetRef: "stack-1-reaper", comments: [tall.comments[1]])
        var openParent = parentMerged
        openParent.state = .open
        #expect(landing(midway, others: [older, openParent])?.parent == 158)
    }

    @Test(arguments: [
        "retargeted from a to main: !x merged", "retargeted from a to main: !159 closed",
        "Retargeted from a to main: !159 merged", "retargeted a to main: !159 merged",
        "retargeted from a to main: !159 merged, again",
    ])
    func otherSystemCommentsAreNotNotes(body: String) {
        #expect(RetargetNote(Fixtures.system(body, daysAgo: 1)) == nil)
    }

    /// The hand-written parser reads every note exactly as the regex gitbay's format suggests,
    /// greedy groups included, on bodies built from the pieces that make parsing hard.
    @Test func readsNotesAsTheRegexWould() {
        let pieces = [
            " to ", "to", " ", ": !", ":", "!", "1", "42", "007", "x", "main", "owner/name:feat", " merged", "é",
            "e\u{301}", "\n", "\u{2028}", "٣", "99999999999999999999",
        ]
        let pattern = #/retargeted from (.+) to (.+): !([0-9]+) merged/#
        var random = SeededGenerator(seed: 0x7265_7461_7267)
        func some(_ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        var notes = 0
        for _ in 0..<5_000 {
            // A note's shape, each fixed part now and then swapped for random pieces.
            let shape = ["retargeted from ", some(1...3), " to ", some(1...3), ": !", some(1...1), " merged"]
            let body = shape.enumerated().map { index, part in
                index % 2 == 0 && random.chance(0.1) ? some(0...2) : part
            }.joined()
            let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
            let expected = (try? pattern.wholeMatch(in: trimmed)).flatMap { match in
                Int(match.output.3).map { (String(match.output.1), String(match.output.2), $0) }
            }
            let note = RetargetNote(Fixtures.system(body, daysAgo: 1))
            #expect(note?.from == expected?.0, "\(body.debugDescription)")
            #expect(note?.to == expected?.1, "\(body.debugDescription)")
            #expect(note?.parent == expected?.2, "\(body.debugDescription)")
            if note != nil { notes += 1 }
        }
        // Enough bodies are notes for the comparison to mean something.
        #expect(notes > 250)
    }
}
