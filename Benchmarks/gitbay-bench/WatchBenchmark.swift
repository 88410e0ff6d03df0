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
/// full passes' (after the first, which fills the cache) × 4. Requests are counted, never timed.
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
        func write(_ text: String, to stream: StandardStream) {
            if stream == .output { output.withLock { $0 += text } }
        }
        func isTerminal(_ stream: StandardStream) -> Bool { false }
    }

    private static func measure(repos: Int, mergeRequests: Int, seconds: Double) async throws -> [BenchRow] {
        let file = try await GeneratedForge.file(repos: repos, mergeRequests: mergeRequests)
        let options = ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"]
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-watch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: state) }
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            let lines = Lines()
            let control = CommandControl()
            let watcher = Task {
                await BotCLI.run(
                    [
                        "watch", ShippedRules.folder.path, "--scope", "repo:*", "--dry-run", "--interval", "1s",
                        "--full-every", "10s", "--format", "json", "--state-dir", state.path, "--url",
                        simulator.baseURL.absoluteString, "--rate-limit", "1000000",
                    ], environment: ["GITBAY_TOKEN": simulator.token, "HOME": state.path], console: lines,
                    control: control)
            }
            try await Task.sleep(for: .seconds(seconds))
            // As systemd would stop it: the entry point records SIGTERM and cancels the command.
            control.recordStop(by: SIGTERM)
            watcher.cancel()
            let open = try await simulator.client().all(try MergeRequestQueryCommand(query: "repo:* is:mr is:open"))
                .count
            let floor = 1 + (open + 199) / 200
            let code = await watcher.value
            let passes = lines.output.withLock { $0 }.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            func requests(_ kind: String, droppingFirst: Bool = false) -> [Int] {
                let matching = passes.filter { $0["pass"] as? String == kind }.compactMap { $0["requests"] as? Int }
                return droppingFirst ? Array(matching.dropFirst()) : matching
            }
            let idle = requests("idle")
            let full = requests("full", droppingFirst: true)
            let idleMean = Double(idle.reduce(0, +)) / Double(max(1, idle.count))
            let fullMean = Double(full.reduce(0, +)) / Double(max(1, full.count))
            let perHour = idleMean * 120 + fullMean * 4
            let size = "\(repos) repos, \(open) open MRs, \(Int(seconds)) s, exit \(code)"
            return [
                BenchRow(
                    name: "watch", size: size, measure: "requests per idle pass (\(idle.count) passes)",
                    value: String(format: "%.2f", idleMean), target: "= \(floor): the feed + open MRs / 200",
                    verdict: !idle.isEmpty && idle.allSatisfy { $0 <= floor } ? "PASS" : "FAIL"),
                BenchRow(
                    name: "watch", size: size, measure: "requests per full pass, cache warm (\(full.count) passes)",
                    value: String(format: "%.1f", fullMean), target: "(reported)", verdict: "—"),
                BenchRow(
                    name: "watch", size: size, measure: "requests per hour at --interval 30s --full-every 15m",
                    value: String(format: "%.0f", perHour) + " = \(String(format: "%.0f", idleMean)) × 120 + "
                        + String(format: "%.0f", fullMean) + " × 4",
                    target: "≤ 7200 (gitbay's 120/min)", verdict: perHour <= 7200 && code == 143 ? "PASS" : "FAIL"),
            ]
        }
    }
}
