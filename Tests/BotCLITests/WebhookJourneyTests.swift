import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

/// A branch pushed with no merge request, one pending build of its head, and a stale issue whose
/// last word is the bot's; CI runs `test` on every push.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "topic": "\(sha("c"))"},
       "labels": [{"name": "stale"}], "ci_jobs": ["test"],
       "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice", "labels": ["stale"],
                   "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-02T00:00:00.000Z",
                   "comments": [{"author": "triage-bot", "body": "stale notice", "kind": "comment",
                                 "created_at": "2025-01-02T00:00:00.000Z"}]}],
       "builds": [{"number": 1, "job": "test", "status": "pending", "sha": "\(sha("c"))", "ref": "topic",
                   "created_at": "2025-01-01T00:00:00Z"}]}]}
    """

/// The shipped rules that judge no time: `unmark-stale` and `cancel-superseded`.
private let rules =
    unmarkStaleRule + "\n"
    + """
      - name: cancel-superseded
        on: builds
        when:
          - status in [pending, running]
          - superseded
          - not ref.default
        do:
          - cancel
    """

private let secret = "a webhook secret of the test's own"

/// The argv of every write the bot's account applied, in order.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// A watcher taking the simulator's webhook deliveries, on a clock that never moves unless the
/// test moves it: what it does without the clock moving, it did because a delivery came.
private struct HookedWatcher {
    let watcher: ClockedWatcher
    /// The status server's address, which the hook posts to.
    let endpoint: URL

    init(_ simulator: SimulatorProcess, state: BotState = BotState()) async throws {
        let secretFile = Scratch.url("webhook-secret-\(UUID().uuidString)")
        try (secret + "\n").write(to: secretFile, atomically: true, encoding: .utf8)
        let started = ClockedWatcher(
            simulator, rules: try scopedRuleFolder(rules), state: state,
            ["--listen", "127.0.0.1:0", "--webhook-secret-file", secretFile.path])
        watcher = started
        let serving = try await eventually(within: 60) { started.console.error.contains("note: serving") }
        try #require(serving, "\(started.console.error)")
        let line = try #require(started.console.error.split(separator: "\n").first { $0.contains("note: serving") })
        let address = try #require(line.split(separator: " ").last)
        endpoint = try #require(URL(string: String(address) + "hooks/gitbay"))
        // The bot's account administers krz/app (the simulator's default), so it adds the hook.
        let added = try await simulator.write(
            ["webhook", "add", "krz/app", endpoint.absoluteString, "--secret", "-"], stdin: secret)
        try #require(added == 200)
    }
}

/// `watch --listen --webhook-secret-file` against the simulator's webhooks, as gitbay delivers them
/// (`internal/webhook/webhook.go`): a push to a branch with no merge request, which no feed shows,
/// and a comment are acted on without waiting for a poll; a delivery gitbay sends again acts once.
@Suite struct WebhookJourneyTests {
    private let options =
        ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000", "--webhook-allow-local"]
        + ForgeActivity.simulatorOptions

    @Test func aPushAndACommentAreActedOnByTheirDeliveriesWithoutAPoll() async throws {
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30))
            #expect(try botWrites(simulator).isEmpty, "build 1 is its branch's newest until the push")

            // A push to topic queues build 2 of the new head; gitbay's feed never shows it.
            try await simulator.control(
                "{\"push\": {\"repo\": \"krz/app\", \"branch\": \"topic\", \"sha\": \"\(sha("d"))\"}}")
            let cancelled = try await eventually(within: 30) {
                try botWrites(simulator).contains("build cancel krz/app 1")
            }
            #expect(cancelled, "\(watcher.console.output)\n\(watcher.console.error)")

            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            let unmarked = try await eventually(within: 30) {
                try botWrites(simulator).contains("issue label krz/app 1 --remove stale")
            }
            #expect(unmarked, "\(watcher.console.output)\n\(watcher.console.error)")
            #expect(watcher.clock.now == .zero, "no poll fell due: the deliveries did it")
            #expect(watcher.passes.first == "full" && watcher.passes.count >= 3, "\(watcher.passes)")
            #expect(try botWrites(simulator).count == 2)
            #expect(await watcher.stop() == 130)
        }
    }
}
