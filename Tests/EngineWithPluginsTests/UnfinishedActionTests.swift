import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

private func entry(
    _ run: String, _ phase: JournalEntry.Phase, _ action: String, _ argv: [String], outcome: String? = nil,
    at seconds: Double = 0, item: String = "krz/app#34"
) -> JournalEntry {
    JournalEntry(
        at: Date(timeIntervalSince1970: 1_790_000_000 + seconds), run: run, phase: phase, rule: "close-stale",
        item: item, action: action, argv: argv, outcome: outcome, argument: ActionArgument.none)
}

private let comment = ["issue", "comment", "krz/app", "34", "--file", "-"]
private let close = ["issue", "close", "krz/app", "34"]

@Suite struct UnfinishedActionTests {
    @Test func anActionAfterADoneOneThatFailedIsUnfinished() throws {
        let journal = [
            entry("r1", .intent, "comment", comment, at: 1),
            entry("r1", .result, "comment", comment, outcome: "applied"),
            entry("r1", .intent, "close", close, at: 2), entry("r1", .result, "close", close, outcome: "failed"),
        ]
        let unfinished = UnfinishedAction.find(in: journal)
        #expect(unfinished.map(\.action) == ["close"])
        let first = try #require(unfinished.first)
        #expect(first.command.argv == close)
        #expect(first.item == "krz/app#34")
        #expect(first.since == Date(timeIntervalSince1970: 1_790_000_001))
    }

    @Test func anIntentWithoutAResultAfterADoneOneIsUnfinished() {
        let journal = [
            entry("r1", .intent, "comment", comment), entry("r1", .result, "comment", comment, outcome: "applied"),
            entry("r1", .intent, "close", close),
        ]
        #expect(UnfinishedAction.find(in: journal).map(\.action) == ["close"])
    }

    @Test func anEntryWhereNothingWasDoneIsLeftToTheRules() {
        let journal = [
            entry("r1", .intent, "comment", comment), entry("r1", .result, "comment", comment, outcome: "failed"),
            entry("r1", .intent, "close", close), entry("r1", .result, "close", close, outcome: "failed"),
        ]
        #expect(UnfinishedAction.find(in: journal).isEmpty)
    }

    @Test func aLaterRunThatFinishedItClearsIt() {
        let journal = [
            entry("r1", .intent, "comment", comment), entry("r1", .result, "comment", comment, outcome: "applied"),
            entry("r1", .intent, "close", close), entry("r1", .result, "close", close, outcome: "failed"),
            entry("r2", .intent, "close", close), entry("r2", .result, "close", close, outcome: "already-done"),
        ]
        #expect(UnfinishedAction.find(in: journal).isEmpty)
    }

    @Test func finishedEntriesLeaveNothing() {
        let journal = [
            entry("r1", .intent, "comment", comment), entry("r1", .result, "comment", comment, outcome: "applied"),
            entry("r1", .intent, "close", close), entry("r1", .result, "close", close, outcome: "applied"),
        ]
        #expect(UnfinishedAction.find(in: journal).isEmpty)
    }

    /// A command's merge that gitbay refused, its reply sent: the reply landing does not make the
    /// merge or the acknowledgement left after it unfinished, and it settles what an earlier run of
    /// the same command left.
    @Test func aRefusedCommandIsSettledWithEverythingEarlierRunsLeftOfIt() {
        let merge = ["mr", "merge", "krz/app", "34", "--when-ready"]
        let react = ["mr", "react", "krz/app", "34", "--comment", "7", "+1"]
        let reply = ["mr", "comment", "krz/app", "34", "--file", "-"]
        let journal = [
            entry("r1", .planned, "merge", merge), entry("r1", .planned, "react", react),
            entry("r1", .intent, "merge", merge),
            entry("r2", .planned, "merge", merge), entry("r2", .planned, "react", react),
            entry("r2", .intent, "merge", merge), entry("r2", .result, "merge", merge, outcome: "refused"),
            entry("r2", .intent, "comment", reply), entry("r2", .result, "comment", reply, outcome: "applied"),
        ]
        #expect(UnfinishedAction.find(in: Array(journal.prefix(3))).map(\.action).sorted() == ["merge", "react"])
        #expect(UnfinishedAction.find(in: journal).isEmpty)
        let failed = journal.map {
            $0.outcome == "refused" ? entry("r2", .result, "merge", merge, outcome: "failed") : $0
        }
        #expect(
            UnfinishedAction.find(in: failed).map(\.action).sorted() == ["merge", "react"],
            "a plain failure is finished")
    }
}
