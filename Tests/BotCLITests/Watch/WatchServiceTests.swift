import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

@testable import BotCLI

/// One repository with one issue the shipped `unmark-stale` rule acts on at the first pass: it is
/// labelled stale, and alice spoke after the bot.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(String(repeating: "1", count: 40))"},
       "labels": [{"name": "stale"}],
       "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice", "labels": ["stale"],
                   "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-03T00:00:00.000Z",
                   "comments": [{"author": "triage-bot", "body": "stale notice", "kind": "comment",
                                 "created_at": "2025-01-02T00:00:00.000Z"},
                                {"author": "alice", "body": "still here", "kind": "comment",
                                 "created_at": "2025-01-03T00:00:00.000Z"}]}]}]}
    """

/// The rule that acts on the forge above, in a folder of its own.
private func ruleFolder() throws -> String {
    try scopedRuleFolder(unmarkStaleRule)
}

private let simulatorOptions = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

@Suite struct WatchServiceTests {
    @Test func theMetricsParseWithPrometheusClientAndCountWhatTheWatcherDid() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: ruleFolder())
            try await watcher.passes(2)
            let scrape = try await watcher.get("/metrics")
            #expect(scrape.status == 200)
            #expect(scrape.contentType == "text/plain; version=0.0.4; charset=utf-8")
            #expect(!scrape.body.contains(simulator.token))
            let families = try await PrometheusText.parse(scrape.body)
            func samples(_ name: String) -> [PrometheusText.Sample] {
                families.first { $0.name == "gitbay_bot_\(name)" }?.samples ?? []
            }
            #expect(samples("passes").first { $0.labels["kind"] == "full" }?.value == 1)
            #expect(samples("passes").map(\.value).reduce(0, +) >= 2)
            #expect((samples("requests").first { $0.labels["type"] == "read" }?.value ?? 0) > 0)
            #expect(samples("requests").first { $0.labels["type"] == "write" }?.value == 1)
            #expect(
                samples("actions").first { $0.labels == ["rule": "unmark-stale", "outcome": "applied"] }?.value == 1)
            #expect(samples("rules_loaded").first?.value == 1)
            #expect(samples("feed_position").count == 1)
            #expect((samples("resident_memory_bytes").first?.value ?? 0) > 1_000_000)
            let last = try #require(samples("last_successful_pass_timestamp_seconds").first?.value)
            #expect(abs(last - Date().timeIntervalSince1970) < 60)
            #expect(try await watcher.get("/nothing-here").status == 404)
            _ = try await watcher.stop()
        }
    }

    @Test func aFailedReloadIsCountedAndShownWhileTheOldRulesStay() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: ruleFolder())
            try await watcher.passes(1)
            try "rules: [".write(
                to: URL(fileURLWithPath: watcher.rules).appendingPathComponent("rules.yml"), atomically: true,
                encoding: .utf8)
            watcher.bot.send(SIGHUP)
            _ = try await watcher.bot.waitForError(containing: "the rules were not reloaded")
            let families = try await PrometheusText.parse(try await watcher.get("/metrics").body)
            let failures = families.first { $0.name == "gitbay_bot_rules_reload_failures" }?.samples.first?.value
            #expect(failures == 1)
            #expect(families.first { $0.name == "gitbay_bot_rules_loaded" }?.samples.first?.value == 1)
            let page = try await watcher.get("/").body
            #expect(page.contains("failed; the rules below stay"), "\(page)")
            #expect(page.contains("<code>unmark-stale</code>"))
            _ = try await watcher.stop()
        }
    }

    @Test func anAddressThatIsNotLoopbackIsServedWithAWarningANameIsRefusedAndAPortInUseIsExit1() async throws {
        let refused = await runBot(["watch", "--listen", "example.org:9464", "--url", "http://127.0.0.1:9"])
        #expect(refused.code == 64)
        #expect(refused.error.contains("not 'example.org:9464'"), "\(refused.error)")
        let console = RecordingConsole()
        let control = CommandControl()
        let state = BotState()
        let folder = try ruleFolder()
        let watcher = Task {
            await BotCLI.run(
                [
                    "watch", folder, "--listen", "0.0.0.0:0", "--url", "http://127.0.0.1:9", "--state-dir",
                    state.folder,
                ], environment: testEnvironment(["GITBAY_TOKEN": "gb_" + String(repeating: "0", count: 64)]),
                console: console, control: control)
        }
        let warned = try await eventually(within: 120) { console.error.contains("status page at http://0.0.0.0:") }
        #expect(warned)
        #expect(console.error.contains("warning: --listen 0.0.0.0:0 serves /metrics"), "\(console.error)")
        // A second watcher on the port the first one holds stops at once, saying why.
        let port = try #require(
            console.error.split(separator: "\n").first { $0.contains("status page at") }?.split(separator: ":").last?
                .dropLast())
        let taken = await runBot(
            [
                "watch", folder, "--listen", "127.0.0.1:\(port)", "--url", "http://127.0.0.1:9", "--state-dir",
                BotState().folder,
            ], environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "0", count: 64)])
        #expect(taken.code == 1)
        #expect(taken.error.contains("cannot listen on 127.0.0.1:\(port)"), "\(taken.error)")
        watcher.cancel()
        #expect(await watcher.value == 130)
    }

    @Test func healthzTurns503WhileTheServerIsDownAndBackTo200WhenItReturns() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: ruleFolder())
            try await watcher.passes(1)
            let up = try await watcher.get("/healthz")
            #expect(up.status == 200, "\(up.body)")
            #expect(up.body.hasPrefix("ok: "))
            await simulator.stopServing()
            var down: (status: Int, body: String, contentType: String?)?
            #expect(
                try await eventually(within: 60) {
                    down = try await watcher.get("/healthz")
                    return down?.status == 503
                })
            #expect(down?.body.hasPrefix("no successful pass for ") == true, "\(down?.body ?? "")")
            #expect(down?.body.contains("the server cannot be reached") == true, "\(down?.body ?? "")")
            try await simulator.serveAgain()
            #expect(try await eventually(within: 60) { try await watcher.get("/healthz").status == 200 })
            _ = try await watcher.stop()
        }
    }

    @Test func thePageLoadsInHeadlessChromiumWithoutConsoleErrors() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: ruleFolder())
            try await watcher.passes(2)
            let screenshot = Scratch.url("status-page-\(UUID().uuidString).png")
            let visit = try await HeadlessBrowser.visit(watcher.base, screenshotTo: screenshot)
            #expect(visit.consoleErrors.isEmpty, "\(visit.consoleErrors)")
            for text in ["unmark-stale", "Last passes", "krz/app#1", "issue label krz/app 1 --remove stale", "applied"]
            {
                #expect(visit.dom.contains(text), "\(text)")
            }
            #expect(!visit.dom.contains(simulator.token))
            let png = try Data(contentsOf: visit.screenshot)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
            _ = try await watcher.stop()
        }
    }

    @Test func itNotifiesSystemdAndStarvesTheWatchdogOnceARequestHangs() async throws {
        let socket = try NotifySocketStandIn()
        defer { socket.close() }
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(
                simulator, rules: ruleFolder(),
                environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "1000000"],
                ["--format", "json"])
            let ready = try #require(try await socket.first(within: .seconds(30)) { $0 == "READY=1" })
            #expect(ready.assignments.contains { $0.hasPrefix("STATUS=") && $0.contains("full pass") })
            let fed = try await socket.first(within: .seconds(10), after: ready.at) { $0 == "WATCHDOG=1" }
            #expect(fed != nil, "the watchdog is fed while passes run")
            try await watcher.passes(2)
            // Every read from now on hangs until released: the next poll never returns.
            try await simulator.control(#"{"faults": ["hold,method=GET"]}"#)
            #expect(try await eventually(within: 30) { try await simulator.stats()["held"] as? Int ?? 0 >= 1 })
            // Nothing moves from the held request on; once max(3 intervals, twice its longest pass)
            // have gone by, the watchdog's ticks (every half second) go unfed: waited for as six
            // ticks in a row with no WATCHDOG=1.
            let silent = try await eventually(within: 60) {
                let fed = socket.received.last { $0.assignments.contains("WATCHDOG=1") }?.at ?? .distantPast
                return Date().timeIntervalSince(fed) > 3
            }
            #expect(silent, "the watchdog starves once nothing moved: \(socket.received.map(\.assignments))")
            let stopped = Date()
            let end = try await watcher.stop()
            #expect(try await socket.first(within: .seconds(5), after: stopped) { $0 == "STOPPING=1" } != nil)
            #expect(end.output.split(separator: "\n").count >= 2)
        }
    }

    @Test func silentClientsAndAnEndlessHeaderNeitherDelayPassesNorGrowMemory() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: ruleFolder())
            try await watcher.passes(1)
            let port = try #require(watcher.base.port)
            let before = try residentKilobytes(of: watcher.bot.processIdentifier)
            let silent = try (0..<8).map { _ in try RawClient(port: port) }
            // One header line that never ends, 64 KiB at a time, for 4 s, reconnecting when refused.
            async let flooded = offPool { () -> Int in
                var sent = 0
                let chunk = Array("X-Flood: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 65_536)
                let end = Date().addingTimeInterval(4)
                while Date() < end {
                    guard let connection = try? RawClient(port: port) else { break }
                    connection.write("GET / HTTP/1.1\r\n")
                    while Date() < end, connection.write(chunk) { sent += chunk.count }
                }
                return sent
            }
            let printed = try await watcher.bot.waitForOutput(within: 30) { _ in true }
            let passesBefore = printed.split(separator: "\n").count
            try await watcher.passes(passesBefore + 3, within: 30)
            let sent = try await flooded
            let after = try residentKilobytes(of: watcher.bot.processIdentifier)
            #expect(
                after - before < 16_384, "resident memory grew \(after - before) KiB while \(sent) bytes were sent")
            #expect(silent.count == 8)
            #expect(try await eventually(within: 20) { try await watcher.get("/healthz").status == 200 })
            _ = try await watcher.stop()
        }
    }
}

/// A process's resident memory in KiB, from /proc.
private func residentKilobytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
    return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
}
