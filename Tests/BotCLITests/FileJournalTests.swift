import Foundation
import GitbayKit
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json").path
private let rules = root.appendingPathComponent("rules").path

private let comment = ["issue", "comment", "krz/app", "34", "--file", "-"]
private let close = ["issue", "close", "krz/app", "34"]

private func entry(
    _ run: String, _ phase: JournalEntry.Phase, _ action: String, _ argv: [String], outcome: String? = nil,
    rule: String = "close-stale", item: String = "krz/app#34", at seconds: Double = 0
) -> JournalEntry {
    JournalEntry(
        at: Date(timeIntervalSince1970: 1_790_000_000 + seconds), run: run, phase: phase, rule: rule, item: item,
        action: action, argv: argv, outcome: outcome, argument: ActionArgument.none)
}

@Suite struct FileJournalTests {
    private func journalPath() -> String {
        Scratch.url("journal-\(UUID().uuidString)/journal.jsonl").path
    }

    @Test func aSecondOpenIsBusyUntilTheFirstCloses() throws {
        let path = journalPath()
        do {
            let first = try FileJournal(path: path)
            #expect {
                _ = try FileJournal(path: path)
            } throws: { error in
                if case .busy = error as? FileJournal.OpenError { return true }
                return false
            }
            withExtendedLifetime(first) {}
        }
        #expect(throws: Never.self) { _ = try FileJournal(path: path) }
    }

    @Test func applyingWhileAnotherRunHoldsTheJournalIsBusyBeforeAnyWrite() async throws {
        let path = journalPath()
        let held = try FileJournal(path: path)
        let planned = await runBot(["plan", rules, "--snapshot", demo, "--format", "json"])
        let plan = Scratch.url("plan-\(UUID().uuidString).json")
        try Data(planned.output.utf8).write(to: plan)
        let result = await runBot(
            ["apply", plan.path, "--url", "http://127.0.0.1:9", "--journal", path],
            environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(result.code == 75)
        #expect(result.error.contains("another gitbay-bot run is applying with the journal \(path)"))
        withExtendedLifetime(held) {}
    }

    /// A journal past the size limit starts afresh with exactly what the next run needs.
    @Test func rotationKeepsWhatIsUnfinishedAndTheRestMovesAside() throws {
        let path = journalPath()
        var journal = (0..<200).flatMap { index in
            let item = "krz/app#\(1000 + index)"
            return [
                entry("r\(index)", .intent, "close", close, item: item, at: Double(index)),
                entry("r\(index)", .result, "close", close, outcome: "applied", item: item, at: Double(index)),
            ]
        }
        journal += [
            entry("r9", .intent, "comment", comment, at: 500),
            entry("r9", .result, "comment", comment, outcome: "applied", at: 500),
            entry("r9", .intent, "close", close, at: 501),
            entry("r9", .result, "close", close, outcome: "failed", at: 501),
        ]
        do {
            let writer = try FileJournal(path: path)
            for entry in journal { try writer.record(entry) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        _ = try FileJournal(path: path, rotationSize: before.count - 1)
        let kept = FileJournal.entries(at: path)
        #expect(kept == Array(journal.suffix(4)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".1")) == before)
        #expect(UnfinishedAction.find(in: kept) == UnfinishedAction.find(in: journal))
        #expect(UnfinishedAction.find(in: kept).map(\.action) == ["close"])
        // Under the limit nothing moves.
        _ = try FileJournal(path: path, rotationSize: before.count)
        #expect(FileJournal.entries(at: path) == kept)
    }

    /// On random journals, what rotation keeps gives the next run the same unfinished actions.
    @Test func whatRotationKeepsFindsTheSameUnfinishedActions() {
        var random = SeededGenerator(seed: 0x6a6f_7572)
        let actions = [("comment", comment), ("close", close), ("add-label", ["issue", "label", "krz/app", "34"])]
        var found = 0
        for _ in 0..<2_000 {
            let journal = (0..<Int.random(in: 0...14, using: &random)).map { index in
                let (action, argv) = actions.randomElement(using: &random)!
                let phase = [JournalEntry.Phase.planned, .intent, .result].randomElement(using: &random)!
                return entry(
                    "r\(Int.random(in: 1...3, using: &random))", phase, action, argv,
                    outcome: phase == .result
                        ? ["applied", "failed", "already-done"].randomElement(using: &random) : nil,
                    rule: ["close-stale", "mark-stale"].randomElement(using: &random)!,
                    item: ["krz/app#34", "krz/app#35"].randomElement(using: &random)!, at: Double(index))
            }
            let unfinished = UnfinishedAction.find(in: journal)
            #expect(UnfinishedAction.find(in: FileJournal.carriedOver(journal)) == unfinished)
            found += unfinished.isEmpty ? 0 : 1
        }
        #expect(found > 200)
    }
}
