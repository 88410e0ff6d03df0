import Foundation
import GitbayClient
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let now = "2026-11-29T12:00:00.000Z"

/// The argv of every write the simulator applied, with how many times.
private func applied(_ simulator: SimulatorProcess) throws -> [String: Int] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.reduce(into: [:]) { counts, entry in
        counts[((entry["argv"] as? [String]) ?? []).joined(separator: " "), default: 0] += 1
    }
}

/// A JSON plan's text without its `source` line, the one thing online and offline plans differ in.
private func withoutSource(_ text: String) -> String {
    text.split(separator: "\n").filter { !$0.contains("\"source\"") }.joined(separator: "\n")
}

@Suite(.serialized) struct RunAgainstSimulatorTests {
    private func bot(
        _ simulator: SimulatorProcess, _ arguments: [String]
    ) async -> (
        code: Int32, output: String, error: String
    ) {
        await runBot(
            arguments + ["--url", simulator.baseURL.absoluteString, "--now", now],
            environment: ["GITBAY_TOKEN": simulator.token])
    }

    @Test func theDemoPlanIsTheSameOfflineAndAgainstTheSimulator() async throws {
        let offline = await runBot(["plan", rules, "--snapshot", demo.path, "--format", "json"])
        #expect(offline.code == 0)
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let online = await bot(simulator, ["plan", rules, "--format", "json"])
            #expect(online.code == 0)
            #expect(withoutSource(online.output) == withoutSource(offline.output))
            #expect(online.output.contains("\"source\" : \"\(simulator.baseURL.absoluteString)\""))
            let writes = try applied(simulator)
            #expect(writes.isEmpty)
        }
    }

    @Test func runAppliesThePlanOnceAndASecondRunHasNothingToDo() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            let first = await bot(simulator, ["run", rules, "--state-dir", state.folder])
            #expect(first.code == 0, "\(first.error)")
            let writes = try applied(simulator)
            #expect(writes.count == 11)
            #expect(writes.values.allSatisfy { $0 == 1 })
            #expect(writes["mr ready krz/gitbay 51"] == 1)
            #expect(writes["issue close krz/gitbay 34"] == 1)
            #expect(writes["build cancel krz/runner 101"] == 1)
            let results = try await state.history(server: simulator.baseURL)
            #expect(results.count == 11)
            #expect(results.allSatisfy { $0["outcome"] as? String == "applied" })

            let second = await bot(simulator, ["run", rules, "--state-dir", state.folder])
            #expect(second.code == 0)
            #expect(second.output.contains("nothing to do"))
            #expect(try applied(simulator) == writes)
        }
    }

    /// A run at `--now` that writes to a live server says so on stderr; a dry run does not.
    ///
    /// It acts on a frozen instant's verdicts for real: allowed (drills against the simulator rely
    /// on it), but never silent.
    @Test func aRunAtAFrozenInstantAgainstALiveServerWarnsOnStderr() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let run = await bot(simulator, ["run", rules, "--state-dir", BotState().folder])
            #expect(run.code == 0, "\(run.error)")
            let lead = "warning: --now \(now): judging the rules at a frozen instant ("
            let tail =
                " this machine's clock) while writing to \(simulator.baseURL.absoluteString) for real; what is due at "
                + "that instant is done now\n"
            #expect(run.error.hasPrefix(lead) && run.error.contains(tail), "\(run.error)")
            let dry = await bot(simulator, ["run", rules, "--dry-run", "--state-dir", BotState().folder])
            #expect(!dry.error.contains("warning: --now"), "\(dry.error)")
        }
    }

    @Test func aDryRunCannotWrite() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let result = await bot(simulator, ["run", rules, "--dry-run", "--state-dir", BotState().folder])
            #expect(result.code == 0)
            #expect(result.output.contains("11 commands pending"))
            let stats = try await simulator.stats()
            #expect((stats["writes"] as? NSNumber)?.intValue == 0)
            #expect(try simulator.journalEntries().isEmpty)
        }
    }

    @Test func aSavedPlanSkipsWhatSomeoneElseAlreadyDid() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let planFile = Scratch.url("plan-\(UUID()).json").path
            let planned = await bot(simulator, ["plan", rules, "-o", planFile])
            #expect(planned.code == 0)
            // Someone cancels build 201 and closes issue 34 between the plan and its application.
            for argv in [["build", "cancel", "krz/gitbay", "201"], ["issue", "close", "krz/gitbay", "34"]] {
                let request = HTTPRequest(
                    method: .post, url: simulator.baseURL.appendingPathComponent("api/v1/cmd"),
                    headers: [HTTPHeader("Authorization", "Bearer \(simulator.token)")],
                    body: try JSONSerialization.data(withJSONObject: ["argv": argv]), timeout: .seconds(10))
                #expect(try await PlatformTransport.make().send(request).status == 200)
            }
            let result = await runBot(
                ["apply", planFile, "--url", simulator.baseURL.absoluteString, "--state-dir", BotState().folder],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 0, "\(result.output)")
            #expect(
                result.output.contains(
                    "skipped: cancel-superseded cancel on krz/gitbay/builds/201 (no longer matches: status in"))
            #expect(
                result.output.contains("skipped: close-stale comment on krz/gitbay#34 (no longer matches: state = open")
            )
            let writes = try applied(simulator)
            #expect(writes["build cancel krz/gitbay 201"] == 1)
            #expect(writes["issue comment krz/gitbay 34 --file -"] == nil)
        }
    }

    /// A plan reviewed for one server is not applied to another: its items there are other items,
    /// and its unfinished actions would land in the other server's journal.
    @Test func aPlanMadeAgainstAnotherServerIsRefusedBeforeAnyWrite() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let planned = await bot(simulator, ["plan", rules, "--format", "json"])
            #expect(planned.code == 0)
            let staging = "https://staging.gitbay.example"
            let planFile = Scratch.url("plan-\(UUID()).json").path
            try planned.output.replacingOccurrences(
                of: "\"source\" : \"\(simulator.baseURL.absoluteString)\"", with: "\"source\" : \"\(staging)\""
            ).write(toFile: planFile, atomically: true, encoding: .utf8)
            let result = await runBot(
                ["apply", planFile, "--url", simulator.baseURL.absoluteString + "/", "--state-dir", BotState().folder],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 64, "\(result.output)\(result.error)")
            #expect(
                result.error
                    == "error: \(planFile) was planned against \(staging), not \(simulator.baseURL.absoluteString)/; "
                    + "make a new plan against this server\n")
            #expect(try simulator.journalEntries().isEmpty)
        }
    }

    /// A plan decided for triage-bot (`@me`, its marked comments) must not go out as someone else,
    /// nor touch triage-bot's state database for a token that is not triage-bot's.
    @Test func aPlanAppliedWithAnotherAccountsTokenIsRefusedBeforeAnyWrite() async throws {
        let options = ["--clock", "frozen", "--user-token", "alice=gb_alice_token"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let planFile = Scratch.url("plan-\(UUID()).json").path
            let planned = await bot(simulator, ["plan", rules, "-o", planFile])
            #expect(planned.code == 0)
            let state = BotState()
            let result = await runBot(
                ["apply", planFile, "--url", simulator.baseURL.absoluteString, "--state-dir", state.folder],
                environment: ["GITBAY_TOKEN": "gb_alice_token"])
            #expect(result.code == 64, "\(result.output)\(result.error)")
            #expect(
                result.error
                    == "error: the plan was made for triage-bot, but the token belongs to alice; apply it with "
                    + "triage-bot's token, or make a new plan with this one\n")
            let sent = try simulator.journalEntries()
            #expect(sent.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: state.folder), "a state database was made")
        }
    }

    /// A plan made offline was judged on a file, whose items need not be the server's: `apply`
    /// refuses it before it asks the server anything.
    @Test func aPlanMadeOfflineFromASnapshotIsRefusedBeforeAnyRequest() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let planFile = Scratch.url("plan-\(UUID()).json").path
            let planned = await runBot(["plan", rules, "--snapshot", demo.path, "-o", planFile])
            #expect(planned.code == 0)
            let state = BotState()
            let result = await runBot(
                ["apply", planFile, "--url", simulator.baseURL.absoluteString, "--state-dir", state.folder],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 64, "\(result.output)\(result.error)")
            #expect(
                result.error
                    == "error: \(planFile) was planned offline from snapshot:\(demo.path), not against a server; a "
                    + "snapshot's items need not be \(simulator.baseURL.absoluteString)'s: make a plan against the "
                    + "server ('plan -o' without --snapshot) and apply that\n")
            let commands = try await simulator.stats()["commands"] as? [String: Any]
            #expect(commands?.isEmpty == true, "\(commands ?? [:])")
            let sent = try simulator.journalEntries()
            #expect(sent.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: state.folder), "a state database was made")
        }
    }

    @Test func underFaultsEveryActionIsDoneOnceOrReportedAndTheNextRunFinishes() async throws {
        let faults = [
            "--fault", "500,rate=0.3,method=POST", "--fault", "reset-after,rate=0.2,method=POST",
            "--fault", "reset,rate=0.1", "--fault", "429,rate=0.1", "--seed", "7", "--api-rate", "1200",
        ]
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"] + faults) { simulator in
            let state = BotState()
            let first = await bot(simulator, ["run", rules, "--state-dir", state.folder, "--rate-limit", "1200"])
            #expect(first.code == 0 || first.code == 3, "\(first.error)")
            #expect(try applied(simulator).values.allSatisfy { $0 == 1 })
            let failed = try await state.commands(server: simulator.baseURL, outcome: "failed")
            if first.code == 0 { #expect(failed.isEmpty) }

            // The bot's journal and the simulator's agree: every write the bot counts as applied,
            // the simulator applied.
            let botApplied = try await state.commands(server: simulator.baseURL, outcome: "applied")
            let simulatorApplied = try applied(simulator)
            #expect(botApplied.allSatisfy { simulatorApplied[$0] == 1 })

            try await simulator.control(#"{"faults":[]}"#)
            let second = await bot(simulator, ["run", rules, "--state-dir", state.folder, "--rate-limit", "1200"])
            #expect(second.code == 0, "\(second.error)")
            let writes = try applied(simulator)
            #expect(writes.count == 11)
            #expect(writes.values.allSatisfy { $0 == 1 })
            let third = await bot(simulator, ["plan", rules])
            #expect(third.output.contains("nothing to do"))
        }
    }

    /// The explanation of `item` live and from a forge-state file, field by field (the source
    /// aside, the one thing they may differ in).
    private func expectSameExplanation(
        _ item: String, live simulator: SimulatorProcess, offline file: String, rules: String = rules
    ) async throws {
        let live = await bot(simulator, ["explain", item, rules, "--format", "json"])
        let offline = await runBot(["explain", item, rules, "--snapshot", file, "--format", "json", "--now", now])
        #expect(live.code == 0, "\(item): \(live.error)")
        #expect(offline.code == 0, "\(item): \(offline.error)")
        var online = try PlanJSON.decode(Explanation.self, from: Data(live.output.utf8))
        let expected = try PlanJSON.decode(Explanation.self, from: Data(offline.output.utf8))
        #expect(online.item == expected.item)
        #expect(online.rules.map(\.name) == expected.rules.map(\.name))
        for (rule, offlineRule) in zip(online.rules, expected.rules) {
            #expect(rule.verdict == offlineRule.verdict, "\(item) \(rule.name)")
            #expect(rule.conditions == offlineRule.conditions, "\(item) \(rule.name)")
            #expect(rule.actions == offlineRule.actions, "\(item) \(rule.name)")
        }
        online.source = expected.source
        #expect(online == expected)
    }

    /// A live `explain` of what the rules' listings leave out (they read open items only) reads
    /// the item itself: a closed issue, a merged merge request and a closed milestone are
    /// explained as offline, every rule with each condition's value, and each rule says the item
    /// is outside its listing.
    @Test func aLiveExplanationOfAClosedOrMergedItemIsTheOfflineOne() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            for item in ["krz/gitbay#30", "krz/gitbay!50", "krz/gitbay/milestones/v1.37.0"] {
                try await expectSameExplanation(item, live: simulator, offline: demo.path)
            }
            let text = await bot(simulator, ["explain", "krz/gitbay#30", rules])
            #expect(text.code == 0, "\(text.error)")
            #expect(
                text.output.contains(
                    "mark-stale (\(rules)/stale-issues.yml:4:11): not matched\n"
                        + "  Label open issues no person has spoken on for 60 days, and say why.\n"
                        + "  outside its listing: it reads only issues whose state is open, and this one's is closed\n"
                        + "  nearest miss: state = open: state is closed\n"), "\(text.output)")
            #expect(text.output.contains("(labels: [bug])"))
            let merged = await bot(simulator, ["explain", "krz/gitbay!50", rules, "--format", "markdown"])
            #expect(
                merged.output.contains(
                    "outside its listing: it reads only merge requests whose state is open, and this one's is merged"),
                "\(merged.output)")
        }
    }

    /// Once the bot has closed an issue, it can still say why: a live `explain` of it after the
    /// run is the offline explanation of a snapshot taken then.
    @Test func whatTheBotClosedItCanStillExplain() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let ran = await bot(simulator, ["run", rules, "--state-dir", BotState().folder])
            #expect(ran.code == 0, "\(ran.error)")
            #expect(try applied(simulator)["issue close krz/gitbay 34"] == 1)
            let snapshot = Scratch.url("after-run-\(UUID()).json").path
            let taken = await runBot(
                [
                    "snapshot", "--scope", "owner:krz", "--all-states", "-o", snapshot, "--url",
                    simulator.baseURL.absoluteString,
                ], environment: ["GITBAY_TOKEN": simulator.token])
            #expect(taken.code == 0, "\(taken.error)")
            try await expectSameExplanation("krz/gitbay#34", live: simulator, offline: snapshot)
            try await expectSameExplanation("krz/gitbay!50", live: simulator, offline: snapshot)
        }
    }
}
