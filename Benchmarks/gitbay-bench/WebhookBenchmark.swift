import ArgumentParsing
import BotCLI
import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization

/// `gitbay-bench webhook`: how long after gitbay's delivery `gitbay-bot watch` answers a push and a
/// comment.
///
/// The real command runs in this process with `--listen` and `--webhook-secret-file` at its default
/// interval (30 s) against the simulator, whose hook on the repository posts every event to it as
/// `internal/webhook/webhook.go` does (a 2 s tick). Trials alternate, one every few seconds: a push
/// to a branch with no merge request whose head has a pending build (the bot cancels the build
/// superseded), and a comment by a person on a stale issue whose last word is the bot's (the bot
/// takes `stale` off). For each, this process watches, every 20 ms, both the simulator's count of
/// deliveries made (the moment the first one after the action counts, which gitbay marks once the
/// bot answered it) and the simulator's journal (the moment the bot's write is applied). The
/// figure is the time between those two moments, to within the 20 ms of the watching; the action
/// to the delivery, which is gitbay's tick, is reported beside it. With `--gitbay-pace` the
/// simulator limits the account as gitbay does and the bot paces itself at its defaults; this
/// process watches through the simulator's control endpoints, which no account's budget pays for
/// (watching with `webhook deliveries` on the bot's token took its reads and made the answer 6 s
/// late). Times are from one run.
enum WebhookBenchmark {
    static let summary = "watch with webhooks: delivery → the bot's write, for a push and for a comment"

    static func run(_ arguments: [String]) async throws {
        var trials = 10
        var paced = false
        var failingCheck = false
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--trials": trials = Int(words.popFirst() ?? "") ?? trials
            case "--gitbay-pace": paced = true
            case "--hook-check-failing": failingCheck = true
            default:
                print(
                    "usage: gitbay-bench webhook [--trials 10 (of each kind)] [--gitbay-pace] "
                        + "[--hook-check-failing (every webhook list answers 500)]")
                return
            }
        }
        BenchRow.report(try await measure(trials: max(1, trials), paced: paced, failingCheck: failingCheck))
    }

    /// What the watcher prints, kept for a failure's message.
    private final class Lines: Console {
        let text = Mutex("")
        func write(_ text: String, to stream: StandardStream) { self.text.withLock { $0 += text } }
        func isTerminal(_ stream: StandardStream) -> Bool { false }
    }

    private static let secret = "a benchmark's webhook secret"
    private static let me = "triage-bot"

    /// `krz/app` with `trials` branches `topic-<n>`, each with its head's pending build `n`, and
    /// `trials` stale issues whose last comment is the bot's; CI runs `test` on every push.
    private static func forge(trials: Int) -> String {
        func sha(_ n: Int) -> String { String(format: "%040x", n) }
        let branches = (1...trials).map { "\"topic-\($0)\": \"\(sha($0))\"" }.joined(separator: ", ")
        let issues = (1...trials).map {
            "{\"number\": \($0), \"title\": \"old bug \($0)\", \"state\": \"open\", \"author\": \"alice\", "
                + "\"labels\": [\"stale\"], \"created_at\": \"2025-01-01T00:00:00.000Z\", "
                + "\"updated_at\": \"2025-01-02T00:00:00.000Z\", \"comments\": [{\"author\": \"\(me)\", "
                + "\"body\": \"stale notice\", \"created_at\": \"2025-01-02T00:00:00.000Z\"}]}"
        }.joined(separator: ", ")
        let builds = (1...trials).map {
            "{\"number\": \($0), \"job\": \"test\", \"status\": \"pending\", \"sha\": \"\(sha($0))\", "
                + "\"ref\": \"topic-\($0)\", \"created_at\": \"2025-01-01T00:00:00Z\"}"
        }.joined(separator: ", ")
        return """
            {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "\(me)",
             "users": ["\(me)", "alice"],
             "repos": [{"path": "krz/app", "default_branch": "main",
               "branches": {"main": "\(sha(0xfff))", \(branches)}, "labels": [{"name": "stale"}],
               "ci_jobs": ["test"], "issues": [\(issues)], "builds": [\(builds)]}]}
            """
    }

    /// The two rules the trials wake: `unmark-stale` and `cancel-superseded`, as shipped.
    private static let rules = "scope: repo:krz/app\nrules:\n" + unmarkStaleRule + "\n" + cancelSupersededRule + "\n"

    /// One trial's two moments, seen from this process.
    struct Trial {
        var acted: ContinuousClock.Instant
        var delivered: ContinuousClock.Instant?
        var written: ContinuousClock.Instant?
    }

    private static func measure(trials: Int, paced: Bool, failingCheck: Bool) async throws -> [BenchRow] {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-webhook-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let rulesFile = state.appendingPathComponent("rules.yml")
        try rules.write(to: rulesFile, atomically: true, encoding: .utf8)
        let secretFile = state.appendingPathComponent("webhook-secret")
        try (secret + "\n").write(to: secretFile, atomically: true, encoding: .utf8)
        let options =
            [
                "--clock", "running", "--time-scale", "1", "--webhook-allow-local", "--api-rate",
                paced ? "120" : "1000000", "--write-rate", paced ? "12" : "1000000",
            ] + ForgeActivity.simulatorOptions + (failingCheck ? ["--fault", "500,command=webhook list"] : [])
        return try await SimulatorProcess.run(state: forge(trials: trials), options: options) { simulator in
            // The hook goes in before the watcher starts, so its start check finds it in order.
            let port = try FreePort.pick()
            let added = try await simulator.write(
                ["webhook", "add", "krz/app", "http://127.0.0.1:\(port)/hooks/gitbay", "--secret", "-"],
                stdin: secret)
            guard added == 200 else { throw StateBenchmark.WrongAnswer(description: "webhook add answered \(added)") }
            let lines = Lines()
            let control = CommandControl()
            let watcher = Task {
                await BotCLI.run(
                    [
                        "watch", rulesFile.path, "--format", "json", "--state-dir", state.path, "--url",
                        simulator.baseURL.absoluteString, "--listen", "127.0.0.1:\(port)", "--webhook-secret-file",
                        secretFile.path,
                    ] + (paced ? [] : ["--rate-limit", "1000000"]),
                    environment: ["GITBAY_TOKEN": simulator.token, "HOME": state.path], console: lines,
                    control: control)
            }
            // The first full pass has nothing to do; wait until it has run, then a little.
            for _ in 0..<300 where !lines.text.withLock({ $0.contains("\"pass\"") }) {
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .seconds(1))
            var pushes: [Trial] = []
            var comments: [Trial] = []
            for n in 1...trials {
                pushes.append(
                    try await trial(simulator, write: "build cancel krz/app \(n)") {
                        try await simulator.control(
                            "{\"push\": {\"repo\": \"krz/app\", \"branch\": \"topic-\(n)\", "
                                + "\"sha\": \"\(String(format: "%040x", 0x1000 + n))\"}}")
                    })
                comments.append(
                    try await trial(
                        simulator, write: "issue label krz/app \(n) --remove stale"
                    ) {
                        let said = try await simulator.write(
                            ["issue", "comment", "krz/app", "\(n)", "--message", "still broken"],
                            token: ForgeActivity.personToken)
                        guard said == 200 else {
                            throw StateBenchmark.WrongAnswer(description: "the comment answered \(said)")
                        }
                    })
            }
            control.recordStop(by: SIGTERM)
            watcher.cancel()
            let code = await watcher.value
            let pace = paced ? "gitbay's pace (120 requests, 12 writes a minute)" : "no pacing"
            let check = failingCheck ? ", the start's hook check failing (500)" : ""
            let size = "1 repo, \(trials) of each, --interval 30s (the default), \(pace)\(check), exit \(code)"
            return [
                row(size, "a push: delivery → build cancelled", pushes.map { gap($0.delivered, $0.written) }),
                row(size, "a comment: delivery → stale taken off", comments.map { gap($0.delivered, $0.written) }),
                row(
                    size, "the action → gitbay's delivery (its 2 s tick), both kinds",
                    (pushes + comments).map { gap($0.acted, $0.delivered) }, target: "(reported)"),
            ]
        }
    }

    /// Does `act`, then watches every 20 ms (at most 30 s) for a delivery made after it and for
    /// the bot's write `write` in the journal.
    private static func trial(
        _ simulator: SimulatorProcess, write: String, act: () async throws -> Void
    ) async throws -> Trial {
        let before = try await delivered(simulator)
        var trial = Trial(acted: .now)
        try await act()
        let end = trial.acted + .seconds(30)
        while ContinuousClock.now < end && (trial.delivered == nil || trial.written == nil) {
            let tick = ContinuousClock.now
            if trial.delivered == nil {
                if try await delivered(simulator) > before { trial.delivered = tick }
            }
            if trial.written == nil,
                try simulator.journalEntries().contains(where: {
                    $0["applied"] as? Bool == true && $0["user"] as? String == me
                        && ($0["argv"] as? [String] ?? []).joined(separator: " ") == write
                })
            {
                trial.written = tick
            }
            try await Task.sleep(until: tick + .milliseconds(20))
        }
        // Apart, so that each trial's delivery goes out in a tick of its own.
        try await Task.sleep(for: .seconds(2.5))
        return trial
    }

    /// How many deliveries the simulator has made: from its stats, which no account's budget pays for.
    private static func delivered(_ simulator: SimulatorProcess) async throws -> Int {
        ((try await simulator.stats()["webhooks"] as? [String: Any])?["delivered"] as? NSNumber)?.intValue ?? 0
    }

    /// Seconds from `start` to `end`; `nil` when either never came.
    private static func gap(_ start: ContinuousClock.Instant?, _ end: ContinuousClock.Instant?) -> Double? {
        guard let start, let end else { return nil }
        return (end - start).seconds
    }

    /// A row of one kind's times: how many came, median, worst; against 3 s unless `target` says.
    private static func row(_ size: String, _ measure: String, _ gaps: [Double?], target: String = "≤ 3 s") -> BenchRow
    {
        let seen = gaps.compactMap { $0 }.sorted()
        let median = seen.isEmpty ? 0 : seen[seen.count / 2]
        let worst = seen.last ?? 0
        let verdict = target == "(reported)" ? "—" : seen.count == gaps.count && worst <= 3 ? "PASS" : "FAIL"
        return BenchRow(
            name: "webhook", size: size, measure: measure + ": seen (of trials), median, worst",
            value: String(format: "%d (of %d), %.2f s, %.2f s", seen.count, gaps.count, median, worst),
            target: target, verdict: verdict)
    }
}
