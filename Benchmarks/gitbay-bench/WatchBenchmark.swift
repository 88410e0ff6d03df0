import ArgumentParsing
import BotCLI
import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization

/// `gitbay-bench watch`: what `gitbay-bot watch` costs when nothing happens, and a full pass.
///
/// The real command runs in this process against the simulator on the generated 5-repository
/// forge, with a short interval and full passes every few seconds, while the simulator counts
/// requests; each pass's JSON line gives its kind and requests. An idle pass's floor is the feed
/// plus the pages (200 rows each) of the open merge requests' `updated_at`: the one read that
/// shows a push to their branches, which gitbay's feed never does, and the query language can
/// neither sort nor filter by that time. The cost at the defaults (a poll
/// every 30 s, a full pass every 15 min) is then the idle passes' requests × 120 an hour plus the
/// full passes' (after the first, which fills the cache) × 4. With webhooks (a third run, with a
/// hook on every repository and `--webhook-secret-file`) the start checks the hooks and then polls
/// at the relaxed pace, ten intervals (5 min at the defaults, 12 polls an hour), which the run
/// shows by the idle passes it makes. Requests are counted, never timed.
enum WatchBenchmark {
    static let summary = "watch idle cost: requests per idle poll and per full pass, as requests per hour"

    static func run(_ arguments: [String]) async throws {
        var seconds = 40.0
        var repos = 5
        var mergeRequests = 100
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--seconds": seconds = Double(words.popFirst() ?? "") ?? seconds
            case "--repos": repos = Int(words.popFirst() ?? "") ?? repos
            case "--mrs": mergeRequests = Int(words.popFirst() ?? "") ?? mergeRequests
            default:
                print("usage: gitbay-bench watch [--seconds 40] [--repos 5] [--mrs 100 (per repository)]")
                return
            }
        }
        BenchRow.report(try await measure(repos: repos, mergeRequests: mergeRequests, seconds: seconds))
    }

    /// The lines the watcher prints, kept.
    private final class Lines: Console {
        let output = Mutex("")
        let error = Mutex("")
        func write(_ text: String, to stream: StandardStream) {
            if stream == .output { output.withLock { $0 += text } } else { error.withLock { $0 += text } }
        }
        func isTerminal(_ stream: StandardStream) -> Bool { false }
    }

    /// One watcher's run: its pass lines, its exit code and, when it served, what scraping cost.
    private struct Watched {
        var passes: [[String: Any]]
        var code: BotExitCode
        /// How long each once-a-second scrape of /metrics took, seen from the scraper.
        var scrapes: [Duration] = []
        var scrapeBytes = 0
        /// This process's CPU seconds per scrape over back-to-back scrapes, server and scraper both.
        var cpuPerScrape: Double?

        /// The `requests` (or `seconds`) of the passes of `kind`, without the first full pass, which
        /// fills the cache.
        func values(_ kind: String, _ key: String) -> [Double] {
            let matching = passes.filter { $0["pass"] as? String == kind }.compactMap {
                ($0[key] as? NSNumber)?.doubleValue
            }
            return kind == "full" ? Array(matching.dropFirst()) : matching
        }
    }

    private static func mean(_ values: [Double]) -> Double {
        values.reduce(0, +) / Double(max(1, values.count))
    }

    private static func measure(repos: Int, mergeRequests: Int, seconds: Double) async throws -> [BenchRow] {
        let file = try await GeneratedForge.file(repos: repos, mergeRequests: mergeRequests)
        let options = [
            "--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000", "--webhook-allow-local",
        ]
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            let plain = try await watch(simulator, seconds: seconds, scraping: false)
            let scraped = try await watch(simulator, seconds: seconds, scraping: true)
            let hooked = try await watch(simulator, seconds: seconds, scraping: false, webhooks: true)
            let open = try await simulator.client().all(try MergeRequestQueryCommand(query: "repo:* is:mr is:open"))
                .count
            let floor = 1 + (open + 199) / 200
            let idle = plain.values("idle", "requests")
            let full = plain.values("full", "requests")
            let idleMean = mean(idle)
            let fullMean = mean(full)
            let perHour = idleMean * 120 + fullMean * 4
            let hookedIdle = hooked.values("idle", "requests")
            let hookedFull = hooked.values("full", "requests")
            // The start's check reads two requests a repository, for at most ten; the relaxed
            // pace at the defaults is a poll every 300 s.
            let check = Double(2 * min(repos, 10))
            let hookedPerHour = mean(hookedIdle) * 12 + mean(hookedFull) * 4 + check
            let size = "\(repos) repos, \(open) open MRs, \(Int(seconds)) s, exit \(plain.code.rawValue)"
            let scrapedSize = "same, scraping /metrics every 1 s, exit \(scraped.code.rawValue)"
            let sameRequests =
                mean(scraped.values("idle", "requests")) == idleMean
                && mean(scraped.values("full", "requests")) == fullMean
            let timing = ["idle", "full"].map {
                mean(scraped.values($0, "seconds")) / max(1e-9, mean(plain.values($0, "seconds")))
            }
            let latencies = scraped.scrapes.map { $0.seconds * 1000 }.sorted()
            let median = latencies.isEmpty ? 0 : latencies[latencies.count / 2]
            return [
                BenchRow(
                    name: "watch", size: size, measure: "requests per idle pass (\(idle.count) passes)",
                    value: String(format: "%.2f", idleMean), target: "= \(floor): the feed + open MRs / 200",
                    verdict: !idle.isEmpty && idle.allSatisfy { Int($0) <= floor } ? "PASS" : "FAIL"),
                BenchRow(
                    name: "watch", size: size, measure: "requests per full pass, cache warm (\(full.count) passes)",
                    value: String(format: "%.1f", fullMean), target: "(reported)", verdict: "—"),
                BenchRow(
                    name: "watch", size: size, measure: "requests per hour at --interval 30s --full-every 15m",
                    value: String(format: "%.0f", perHour) + " = \(String(format: "%.0f", idleMean)) × 120 + "
                        + String(format: "%.0f", fullMean) + " × 4",
                    target: "≤ 7200 (gitbay's 120/min)",
                    verdict: perHour <= 7200 && plain.code == .terminated ? "PASS" : "FAIL"),
                BenchRow(
                    name: "watch", size: "same, with a webhook on every repository, exit \(hooked.code.rawValue)",
                    measure: "idle passes in the run, polling alone and with webhooks",
                    value: "\(idle.count) and \(hookedIdle.count)",
                    target: "fewer with webhooks (a poll each full pass, here every 10 s, for one each second)",
                    verdict: hookedIdle.count * 4 < max(1, idle.count) && hooked.code == .terminated ? "PASS" : "FAIL"),
                BenchRow(
                    name: "watch", size: "same, with a webhook on every repository",
                    measure: "requests per idle hour at --interval 30s --full-every 15m: polling alone, with webhooks",
                    value: String(format: "%.0f and %.0f", perHour, hookedPerHour)
                        + " = \(String(format: "%.0f", mean(hookedIdle.isEmpty ? idle : hookedIdle))) × 12 + "
                        + String(format: "%.0f", mean(hookedFull)) + " × 4 + \(Int(check)) (the start's check)",
                    target: "(reported)", verdict: "—"),
                BenchRow(
                    name: "watch", size: scrapedSize,
                    measure: "requests per idle and full pass, against the run without scraping",
                    value: String(
                        format: "%.2f and %.1f", mean(scraped.values("idle", "requests")),
                        mean(scraped.values("full", "requests"))),
                    target: "the same", verdict: sameRequests && scraped.code == .terminated ? "PASS" : "FAIL"),
                BenchRow(
                    name: "watch", size: scrapedSize,
                    measure: "pass time, idle and full, over the run without scraping",
                    value: String(format: "× %.2f and × %.2f", timing[0], timing[1]), target: "≈ 1 (noise on 2 cores)",
                    verdict: "—"),
                BenchRow(
                    name: "watch", size: scrapedSize,
                    measure: "one scrape: median latency (\(latencies.count) scrapes), bytes, CPU (server + scraper)",
                    value: String(
                        format: "%.1f ms, %d B, %.2f ms CPU", median, scraped.scrapeBytes,
                        (scraped.cpuPerScrape ?? 0) * 1000),
                    target: "(reported)", verdict: scraped.scrapes.isEmpty ? "FAIL" : "—"),
            ]
        }
    }

    /// Runs the real command in this process for `seconds`, scraping its /metrics once a second when
    /// `scraping`, then 200 times back to back for the CPU cost of one scrape, and stops it as
    /// systemd would.
    private static func watch(
        _ simulator: SimulatorProcess, seconds: Double, scraping: Bool, webhooks: Bool = false
    ) async throws -> Watched {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-watch-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        // The hooks go in before the watcher starts, so its first check finds them.
        let listening = webhooks ? try await BenchHooks.hookEveryRepository(simulator, state: state) : []
        let lines = Lines()
        let control = CommandControl()
        let watcher = Task {
            await BotCLI.run(
                [
                    "watch", ShippedRules.folder.path, "--scope", "repo:*", "--dry-run", "--interval", "1s",
                    "--full-every", "10s", "--format", "json", "--state-dir", state.path, "--url",
                    simulator.baseURL.absoluteString, "--rate-limit", "1000000",
                ] + (scraping ? ["--listen", "127.0.0.1:0"] : listening),
                environment: ["GITBAY_TOKEN": simulator.token, "HOME": state.path], console: lines, control: control)
        }
        var result = Watched(passes: [], code: .ok)
        let end = ContinuousClock.now + .seconds(seconds)
        if scraping {
            let url = try await metricsURL(lines)
            let transport = PlatformTransport.make()
            let request = HTTPRequest(method: .get, url: url, headers: [], body: nil, timeout: .seconds(10))
            while ContinuousClock.now < end {
                let started = ContinuousClock.now
                let response = try await transport.send(request)
                result.scrapes.append(ContinuousClock.now - started)
                result.scrapeBytes = response.body.count
                try await Task.sleep(until: started + .seconds(1))
            }
            let cpu = ProcessCPU.now()
            for _ in 0..<200 { _ = try await transport.send(request) }
            result.cpuPerScrape = (ProcessCPU.now().seconds - cpu.seconds) / 200
        } else {
            try await Task.sleep(until: end)
        }
        // As systemd would stop it: the entry point records SIGTERM and cancels the command.
        control.recordStop(by: SIGTERM)
        watcher.cancel()
        result.code = BotExitCode(rawValue: await watcher.value) ?? .failure
        result.passes = lines.output.withLock { $0 }.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return result
    }

    /// The watcher's /metrics, from the note it prints once it listens.
    private static func metricsURL(_ lines: Lines) async throws -> URL {
        for _ in 0..<300 {
            let said = lines.error.withLock { $0 }
            if let line = said.split(separator: "\n").first(where: { $0.contains("status page at http") }),
                let base = line.split(separator: " ").last, let url = URL(string: base + "metrics")
            {
                return url
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw StateBenchmark.WrongAnswer(description: "the watcher did not say where it listens")
    }
}
