import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

/// krz/app with 12 open issues nobody spoke on for a year: a rule labelling them all acts on 12
/// of 12, past the tripwire (more than 25%, more than 10).
private let forge: String = {
    let issues = (1...12).map { number in
        """
        {"number": \(number), "title": "old \(number)", "state": "open", "author": "alice",
         "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-02T00:00:00.000Z"}
        """
    }
    return """
        {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
         "users": ["triage-bot", "alice"],
         "repos": [{"path": "krz/app", "default_branch": "main", "labels": [{"name": "idle"}],
           "issues": [\(issues.joined(separator: ","))]}]}
        """
}()

/// `watch` runs unattended, so a rule the tripwire holds back whole is said on stderr once, shown
/// on the status page and counted in `/metrics`, not only hidden among the held actions.
@Suite struct TripwireWatchTests {
    @Test func aTrippedRuleIsSaidOnceAndShownOnThePageAndInTheMetrics() async throws {
        let rules = try scopedRuleFolder(
            """
              - name: label-idle
                on: issues
                when: [state = open, idle > 30d, labels lacks idle]
                do: [{add-label: idle}]
            """)
        try await SimulatorProcess.run(
            state: forge, options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        ) { simulator in
            let bot = try BotProcess(
                [
                    "watch", rules, "--state-dir", BotState().folder, "--interval", "1s", "--full-every", "2s",
                    "--url", simulator.baseURL.absoluteString, "--rate-limit", "6000", "--listen", "127.0.0.1:0",
                ], environment: ["GITBAY_TOKEN": simulator.token])
            let said = try await bot.waitForError(containing: "status page at http")
            let line = try #require(said.split(separator: "\n").first { $0.contains("serving /metrics") })
            let address = try #require(line.split(separator: " ").last)
            let base = try #require(URL(string: String(address)))
            func get(_ path: String) async throws -> String {
                let response = try await PlatformTransport.make().send(
                    HTTPRequest(
                        method: .get, url: URL(string: path, relativeTo: base)!, headers: [], body: nil,
                        timeout: .seconds(10)))
                return String(decoding: response.body, as: UTF8.self)
            }
            let warning = "warning: tripwire: rule 'label-idle' would act on 12 of 12 issues"
            _ = try await bot.waitForError(containing: warning)
            // Full passes every 2 s: several judge the rule again, and none says it again.
            let passes = try await bot.passes(1).count
            _ = try await bot.passes(passes + 3)
            let page = try await get("/")
            #expect(page.contains("Held by the tripwire"), "\(page)")
            #expect(page.contains("label-idle</code></td><td>tripwire: rule"), "\(page)")
            #expect(try await get("/metrics").contains("gitbay_bot_rules_tripped 1\n"))
            bot.send(SIGTERM)
            let end = try await bot.finish(within: 20)
            #expect(end.error.components(separatedBy: warning).count - 1 == 1, "\(end.error)")
            #expect(try simulator.journalEntries().isEmpty)
        }
    }
}
