import Foundation
import GitbayTestSupport
import Testing

private let commands = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/commands").path
private let now = "2026-12-02T12:00:00.000Z"
private let outsiderToken = "gb_" + String(repeating: "d", count: 64)

/// 58 open issues on a public repository where only alice may write, and mallory has no access.
private let forge: String = {
    let issues = (1...58).map { number in
        "{\"number\": \(number), \"title\": \"Issue \(number)\", \"state\": \"open\", \"author\": \"alice\", "
            + "\"created_at\": \"2026-11-30T09:00:00.000Z\", \"updated_at\": \"2026-11-30T09:00:00.000Z\"}"
    }
    return """
        {"format": "gitbay-forge-state/1", "now": "\(now)", "me": "triage-bot",
         "users": ["triage-bot", "alice", "mallory"],
         "repos": [{"path": "krz/app", "default_branch": "main", "visibility": "public",
           "access": ["triage-bot", {"user": "alice", "role": "write"}],
           "labels": [{"name": "bug"}, {"name": "x"}],
           "issues": [\(issues.joined(separator: ",\n"))]}]}
        """
}()

/// Refusals are not a weapon: an outsider's commands on a quarter of the issues neither trip the
/// tripwire nor hold a writer's command, and cost the bot a bounded number of replies a run.
@Suite(.serialized) struct CommandRefusalJourneyTests {
    private func run(_ simulator: SimulatorProcess, state: BotState) async -> (Int32, String, String) {
        let result = await runBot(
            ["run", commands, "--url", simulator.baseURL.absoluteString, "--now", now, "--state-dir", state.folder],
            environment: ["GITBAY_TOKEN": simulator.token])
        return (result.code, result.output, result.error)
    }

    @Test func fifteenOutsidersCommandsCostTheirRepliesAndHoldNothing() async throws {
        let options = [
            "--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000",
            "--user-token", "alice=\(ForgeActivity.personToken)",
            "--user-token", "mallory=\(outsiderToken)",
        ]
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            for number in 1...15 {
                let said = try await simulator.write(
                    ["issue", "comment", "krz/app", "\(number)", "--message", "/label x"], token: outsiderToken)
                #expect(said == 200)
            }
            let asked = try await simulator.write(
                ["issue", "comment", "krz/app", "58", "--message", "/label bug"], token: ForgeActivity.personToken)
            #expect(asked == 200)
            let writes = {
                try simulator.journalEntries().filter {
                    $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot"
                }.map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
            }
            let state = BotState()
            let first = await run(simulator, state: state)
            #expect(first.0 == 0, "no guard trips: \(first.1)\(first.2)")
            #expect(first.1.contains("note: 5 refused comments wait for a reply: at most 10 a run"), "\(first.1)")
            var sent = try writes()
            #expect(sent.contains("issue label krz/app 58 --add bug"), "the writer's command, in the same run")
            #expect(sent.filter { $0.hasPrefix("issue react krz/app 58 ") }.count == 1)
            #expect(sent.filter { $0.hasPrefix("issue comment") }.count == 10, "\(sent)")
            #expect(!sent.contains { $0.contains("--add x") })

            let second = await run(simulator, state: state)
            #expect(second.0 == 0, "\(second.1)\(second.2)")
            sent = try writes()
            #expect(sent.filter { $0.hasPrefix("issue comment") }.count == 15, "one reply per outsider comment")
            #expect(sent.count == 17, "2 for the writer, 15 replies: \(sent)")

            let third = await run(simulator, state: BotState())
            #expect(third.1.contains("nothing to do"), "a lost database answers nothing again: \(third.1)")
            #expect(try writes().count == 17)
        }
    }
}
