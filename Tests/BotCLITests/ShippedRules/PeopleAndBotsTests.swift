import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let ciToken = "gb_" + String(repeating: "c", count: 64)
private let simulatorOptions =
    ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000", "--user-token", "ci-bot=\(ciToken)"]
    + ForgeActivity.simulatorOptions

/// The shipped stale rules on the simulator, with `bots: [ci-bot]`: automation's comments neither
/// keep an issue alive nor bring a stale one back, a person's do both.
@Suite struct PeopleAndBotsTests {
    /// The shipped rules' entries for krz/gitbay#31, by rule, planned at `now` with the configuration.
    ///
    /// Read afresh: the simulator's clock is frozen, so every comment moves `updated_at` to the same
    /// instant and the read cache, which that time validates, could not tell one from the next.
    private func entries(
        _ simulator: SimulatorProcess, config: String, state: BotState, now: String
    ) async throws -> [String] {
        let plan = await runBot(
            against: simulator,
            ["plan", rules, "--config", config, "--state-dir", state.folder, "--format", "json", "--no-cache"],
            now: now)
        #expect(plan.code == 0, "\(plan.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plan.output.utf8)) as? [String: Any])
        return (object["entries"] as? [[String: Any]] ?? []).filter {
            ($0["item"] as? [String: Any])?["reference"] as? String == "krz/gitbay#31"
        }.compactMap { $0["rule"] as? String }
    }

    @Test func aCIAccountsCommentNeitherUnmarksNorResetsTheClockAPersonsDoesBoth() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: simulatorOptions) { simulator in
            let folder = Scratch.url("people-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let config = folder.appendingPathComponent("gitbay-bot.yml").path
            try "bots:\n  - ci-bot\n".write(toFile: config, atomically: true, encoding: .utf8)
            let state = BotState()
            // The first run marks the issue stale, with the bot's notice.
            let marked = await runBot(
                against: simulator, ["run", rules, "--config", config, "--state-dir", state.folder])
            #expect(marked.code == 0, "\(marked.error)")
            #expect(marked.output.contains("+ issue label krz/gitbay 31 --add stale"), "\(marked.output)")
            let comment = ["issue", "comment", "krz/gitbay", "31", "--message", "CI: nightly build passed"]
            #expect(try await simulator.write(comment, token: ciToken) == 200)
            // CI spoke: still stale, and 15 days on it is closed as if CI had said nothing.
            let now = "2026-11-29T12:00:00.000Z"
            let later = "2026-12-14T12:00:00.000Z"
            #expect(try await entries(simulator, config: config, state: state, now: now).isEmpty)
            #expect(try await entries(simulator, config: config, state: state, now: later) == ["close-stale"])
            // Without `bots:`, the same comment is a person's: it unmarks the issue.
            let plain = folder.appendingPathComponent("plain.yml").path
            try "max_actions: 50\n".write(toFile: plain, atomically: true, encoding: .utf8)
            #expect(try await entries(simulator, config: plain, state: state, now: now) == ["unmark-stale"])
            // A person spoke: unmarked now, and not closed 15 days on.
            let reply = ["issue", "comment", "krz/gitbay", "31", "--message", "still happens on main"]
            #expect(try await simulator.write(reply, token: ForgeActivity.personToken) == 200)
            #expect(try await entries(simulator, config: config, state: state, now: now) == ["unmark-stale"])
            #expect(try await entries(simulator, config: config, state: state, now: later) == ["unmark-stale"])
        }
    }
}
