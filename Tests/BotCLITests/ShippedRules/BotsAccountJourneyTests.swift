import Foundation
import GitbayTestSupport
import Testing

private let start = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z
private let day = JourneyForge.day
private let ciToken = "gb_" + String(repeating: "c", count: 64)

/// A reminder, and the close a week after it when the author stays silent (docs/recipes.md).
private let rules = NeedsInfoRules.file(scope: "repo:krz/app")

/// krz/app#5: needs-info, a maintainer's question 16 days old and the bot's marked reminder 9
/// days old; the author said nothing since.
private func forge() throws -> String {
    func comment(_ author: String, _ body: String, daysAgo: Double) -> [String: Any] {
        ["author": author, "body": body, "created_at": JourneyForge.stamp(start - daysAgo * day)]
    }
    let issue: [String: Any] = [
        "number": 5, "title": "It crashes", "state": "open", "author": "gina", "labels": ["needs-info"],
        "created_at": JourneyForge.stamp(start - 30 * day), "updated_at": JourneyForge.stamp(start - 9 * day),
        "comments": [
            comment("bob", "Which version are you on?", daysAgo: 16),
            comment(
                "triage-bot",
                "@gina: could you answer the question above?\n<!-- gitbay-bot:rule=remind-author item=krz/app#5 -->",
                daysAgo: 9),
        ],
    ]
    let state: [String: Any] = [
        "format": "gitbay-forge-state/1", "now": JourneyForge.stamp(start), "me": "triage-bot",
        "users": ["triage-bot", "gina", "bob", "ci-bot"],
        "repos": [
            ["path": "krz/app", "default_branch": "main", "labels": [["name": "needs-info"]], "issues": [issue]]
        ],
    ]
    return String(decoding: try JSONSerialization.data(withJSONObject: state), as: UTF8.self)
}

/// An account named in `bots:` is automation everywhere the bot asks whether someone answered:
/// in `quiet` and `waiting_on`, and in whether its own notice still stands.
@Suite(.serialized) struct BotsAccountJourneyTests {
    /// CI's "CI: green" under the reminder answers nothing: no second reminder, and the close.
    ///
    /// The close comes a week after the first reminder, not a week after CI.
    @Test func aBotsCommentUnderTheReminderNeitherRepeatsItNorRestartsTheWait() async throws {
        let folder = Scratch.url("bots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rulesFile = folder.appendingPathComponent("waiting.yml")
        try rules.write(to: rulesFile, atomically: true, encoding: .utf8)
        let configuration = folder.appendingPathComponent("gitbay-bot.yml")
        try "bots: [ci-bot]\n".write(to: configuration, atomically: true, encoding: .utf8)
        let options = [
            "--clock", "frozen", "--api-rate", "100000", "--write-rate", "100000", "--user-token", "ci-bot=\(ciToken)",
        ]
        try await SimulatorProcess.run(state: try forge(), options: options) { simulator in
            let green = ["issue", "comment", "krz/app", "5", "--message", "CI: green"]
            #expect(try await simulator.write(green, token: ciToken) == 200)
            try await simulator.control(#"{"advance_seconds": 60}"#)
            let run = await runBot(
                against: simulator,
                [
                    "run", rulesFile.path, "--config", configuration.path, "--state-dir",
                    folder.appendingPathComponent("state").path,
                ], now: JourneyForge.stamp(start + 60))
            #expect(run.code == 0, "\(run.output)\(run.error)")
            let sent = try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.map {
                (($0["argv"] as? [String]) ?? []).joined(separator: " ")
            }
            #expect(
                sent == [
                    "issue comment krz/app 5 --message CI: green", "issue comment krz/app 5 --file -",
                    "issue close krz/app 5",
                ], "\(run.output)")
            #expect(!run.output.contains("skipped"), "\(run.output)")
        }
    }
}
