import Foundation
import GitbayKit
import GitbayTestSupport
import RuleEngine
import StateDatabase
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let now = "2026-11-29T12:00:00.000Z"
private let fastSimulator = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

/// The state database as the command line uses it: one run at a time, `history`, the import of
/// an older journal, and a damaged file.
@Suite struct StateCommandTests {
    @Test func applyingWhileAnotherRunHoldsTheDatabaseIsBusyBeforeAnyWrite() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let path = StateLocation.database(state.folder, server: simulator.baseURL, account: "triage-bot")
            let held = try SQLiteStateStore(path: path, mode: .applying)
            let plan = Scratch.url("plan-\(UUID().uuidString).json").path
            let planned = await runBot(against: simulator, ["plan", rules, "-o", plan])
            #expect(planned.code == 0, "\(planned.error)")
            let result = await runBot(
                ["apply", plan, "--url", simulator.baseURL.absoluteString, "--state-dir", state.folder],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 75, "\(result.error)")
            #expect(result.error.contains("another gitbay-bot run is applying with the state database \(path)"))
            let sent = try simulator.journalEntries()
            #expect(sent.isEmpty)
            withExtendedLifetime(held) {}
        }
    }

    /// A state folder where no database can be made: exit 74, before anything is written.
    @Test func anUnopenableStateDatabaseIsExit74BeforeAnyWrite() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let plan = Scratch.url("plan-\(UUID().uuidString).json").path
            let planned = await runBot(against: simulator, ["plan", rules, "-o", plan])
            #expect(planned.code == 0, "\(planned.error)")
            let result = await runBot(
                ["apply", plan, "--url", simulator.baseURL.absoluteString, "--state-dir", "/proc/gitbay-bot"],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 74, "\(result.error)")
            let folder = StateLocation.database("/proc/gitbay-bot", server: simulator.baseURL, account: "triage-bot")
            #expect(result.error.hasPrefix("error: cannot use the state database \(folder)"), "\(result.error)")
            let sent = try simulator.journalEntries()
            #expect(sent.isEmpty)
        }
    }

    /// A database a run made but never wrote to (it stopped before its first write) holds no
    /// history: `history` shows none instead of failing.
    @Test func historyOfADatabaseNeverWrittenIsEmpty() async throws {
        let state = BotState()
        let server = try #require(URL(string: "http://127.0.0.1:9"))
        let path = StateLocation.database(state.folder, server: server, account: "triage-bot")
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let result = await runBot(
            ["history", "--state-dir", state.folder, "--url", server.absoluteString, "--format", "jsonl"])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output.isEmpty)
    }

    /// "Why did the bot label my issue?": the label and the comment, with rule, time and reason.
    @Test func historyShowsWhatARunDidToAnItemAndWhy() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let run = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
            #expect(run.code == 0, "\(run.error)")
            let records = try await state.history(server: simulator.baseURL, ["krz/gitbay#31"])
            #expect(records.map { $0["action"] as? String } == ["comment", "add-label"])
            for record in records {
                #expect(record["outcome"] as? String == "applied")
                #expect(record["rule"] as? String == "mark-stale")
                #expect(record["item"] as? String == "krz/gitbay#31")
                #expect(record["command"] as? String == "run")
                #expect(record["account"] as? String == "triage-bot")
                #expect((record["at"] as? String).flatMap(GitbayTimestamp.parse) != nil)
                let reasons = (record["reasons"] as? [[String: Any]]) ?? []
                #expect(reasons.map { $0["condition"] as? String }.first == "state = open")
                #expect(reasons.contains { $0["condition"] as? String == "quiet > 60d" && $0["observed"] != nil })
            }
            #expect((records.last?["argv"] as? [String]) == ["issue", "label", "krz/gitbay", "31", "--add", "stale"])

            let text = await runBot([
                "history", "krz/gitbay#31", "--state-dir", state.folder, "--url", simulator.baseURL.absoluteString,
            ])
            #expect(text.code == 0)
            #expect(text.output.contains("applied  krz/gitbay#31  mark-stale: add-label  (run "))
            #expect(text.output.contains("    issue label krz/gitbay 31 --add stale\n"))
            #expect(text.output.contains("    because state = open (open), quiet > 60d ("))

            let json = await runBot([
                "history", "--state-dir", state.folder, "--url", simulator.baseURL.absoluteString, "--rule",
                "close-stale", "--format", "json",
            ])
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            #expect(document["format"] as? String == "gitbay-bot-history/1")
            #expect(document["server"] as? String == simulator.baseURL.absoluteString)
            let entries = (document["entries"] as? [[String: Any]]) ?? []
            #expect(entries.map { $0["action"] as? String } == ["close", "comment"])
            #expect(
                Set(entries.flatMap { ($0 as NSDictionary).allKeys as? [String] ?? [] }).isSuperset(of: [
                    "account", "action", "argv", "at", "command", "item", "outcome", "reasons", "resultAt", "rule",
                    "run",
                ]))
        }
    }

    /// `history` of a database that is not one: the line names the file, exit 74.
    @Test func historyOfADamagedDatabaseIsOneLineAndExit74() async throws {
        let state = BotState()
        let server = try #require(URL(string: "http://127.0.0.1:9"))
        let path = StateLocation.database(state.folder, server: server, account: "triage-bot")
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(repeating: 0x5a, count: 4096).write(to: URL(fileURLWithPath: path))
        let result = await runBot(["history", "--state-dir", state.folder, "--url", server.absoluteString])
        #expect(result.code == 74)
        #expect(result.error.hasPrefix("error: cannot use the state database \(path): "))
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test func historyChecksItsArguments() async {
        let wrongItem = await runBot(["history", "gitbay-31", "--state-dir", BotState().folder])
        #expect(wrongItem.code == 64)
        #expect(wrongItem.error.contains("'gitbay-31' names no item"))
        let wrongSince = await runBot(["history", "--since", "last week", "--state-dir", BotState().folder])
        #expect(wrongSince.code == 64)
        #expect(wrongSince.error.contains("--since takes a duration (7d, 12h) or a time"))
        let nothing = await runBot(["history", "--state-dir", BotState().folder, "--url", "http://127.0.0.1:9"])
        #expect(nothing.code == 0)
        #expect(nothing.output == "no actions on record\n")
        #expect(nothing.error.hasPrefix("note: nothing is recorded for http://127.0.0.1:9"))
    }

    /// A journal.jsonl of an earlier version, whose run labelled #31 and was killed before its
    /// comment: imported on first use, and the comment is posted exactly once.
    @Test func anOldJournalIsImportedAndItsUnfinishedActionFinishedExactlyOnce() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let planned = await runBot(against: simulator, ["plan", rules, "--format", "json"])
            let plan = try PlanJSON.decodePlan(from: Data(planned.output.utf8))
            let entry = try #require(plan.entries.first { $0.item.reference == "krz/gitbay#31" })
            let label = try #require(entry.actions.first { $0.action == "add-label" })
            let comment = try #require(entry.actions.first { $0.action == "comment" })
            let labelArgv = try #require(label.command?.argv)
            #expect(try await simulator.write(labelArgv) == 200)

            let at = try #require(GitbayTimestamp.parse(now))
            func line(_ phase: JournalEntry.Phase, _ action: PlannedAction, outcome: String? = nil) -> JournalEntry {
                JournalEntry(
                    at: at, run: "old-run", phase: phase, rule: entry.rule, item: entry.item.reference,
                    action: action.action, argv: action.command?.argv ?? [], outcome: outcome,
                    stdin: action.command?.stdin, argument: action.argument)
            }
            let old = [
                line(.planned, label), line(.planned, comment), line(.intent, label),
                line(.result, label, outcome: "applied"),
            ]
            let state = BotState()
            try FileManager.default.createDirectory(atPath: state.folder, withIntermediateDirectories: true)
            let journal = "\(state.folder)/journal.jsonl"
            let encoder = PlanJSON.encoder(pretty: false)
            try old.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined()
                .write(toFile: journal, atomically: true, encoding: .utf8)

            let first = await runBot(
                against: simulator, ["run", rules, "--state-dir", state.folder, "--journal", journal])
            #expect(first.code == 0, "\(first.output)\(first.error)")
            #expect(first.error.contains("note: imported 4 entries of \(journal)"))
            #expect(!FileManager.default.fileExists(atPath: journal))
            #expect(FileManager.default.fileExists(atPath: journal + ".imported"))
            let second = await runBot(
                against: simulator, ["run", rules, "--state-dir", state.folder, "--journal", journal])
            #expect(second.code == 0)
            #expect(second.output.hasSuffix("nothing to do\n"), "\(second.output)")

            let comments = try simulator.journalEntries().filter {
                ($0["argv"] as? [String]) == comment.command?.argv && $0["applied"] as? Bool == true
            }
            #expect(comments.count == 1)
            let history = try await state.history(server: simulator.baseURL, ["krz/gitbay#31"])
            #expect(history.map { $0["run"] as? String }.last == "old-run")
        }
    }

    @Test(arguments: ["garbage", "truncated"])
    func aDamagedStateFileIsOneLineNamingItAndNothingIsSent(damage: String) async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let path = StateLocation.database(state.folder, server: simulator.baseURL, account: "triage-bot")
            if damage == "garbage" {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: path))
            } else {
                let first = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder, "--dry-run"])
                #expect(first.code == 0)
                // Closed before the file is cut: a dropped store checkpoints its WAL into the file
                // when its queue lets go, which could come after the cut.
                await (try SQLiteStateStore(path: path, mode: .applying)).close()
                let whole = try Data(contentsOf: URL(fileURLWithPath: path))
                try whole.prefix(whole.count / 2 + 100).write(to: URL(fileURLWithPath: path))
            }
            let result = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
            #expect(result.code == 74, "\(result.output)\(result.error)")
            #expect(result.error.hasPrefix("error: cannot use the state database \(path): "))
            #expect(result.error.split(separator: "\n").count == 1)
            #expect(try simulator.journalEntries().isEmpty)
        }
    }
}
