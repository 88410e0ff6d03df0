import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

/// A delivery's body as gitbay writes it (`internal/webhook/webhook.go`, `deliver`).
private func delivery(id: Int, kind: String, repo: String, number: Int) -> String {
    "{\"event\": \"\(kind)\", \"repo\": \"\(repo)\", \"actor\": \"alice\", "
        + "\"created_at\": \"2026-11-29T12:00:00.000Z\", \"data\": {\"number\": \(number)}}"
}

/// How many requests the simulator holds (a `hold` fault): from its stats, which no budget pays for.
private func heldRequests(_ simulator: SimulatorProcess) async throws -> Int {
    (try await simulator.stats()["held"] as? NSNumber)?.intValue ?? 0
}

/// `watch --listen --webhook-secret-file` against the simulator's webhooks, as gitbay delivers them
/// (`internal/webhook/webhook.go`): a push to a branch with no merge request, which no feed shows,
/// and a comment are acted on without waiting for a poll; a delivery gitbay sends again acts once.
@Suite struct WebhookJourneyTests {
    private let forge = HookedWatcher.forge
    private let options = HookedWatcher.simulatorOptions

    @Test func aPushAndACommentAreActedOnByTheirDeliveriesWithoutAPoll() async throws {
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30))
            #expect(try HookedWatcher.botWrites(simulator).isEmpty, "build 1 is its branch's newest until the push")

            // A push to topic queues build 2 of the new head; gitbay's feed never shows it.
            try await simulator.control(
                "{\"push\": {\"repo\": \"krz/app\", \"branch\": \"topic\", \"sha\": \"\(sha("d"))\"}}")
            let cancelled = try await eventually(within: 30) {
                try HookedWatcher.botWrites(simulator).contains("build cancel krz/app 1")
            }
            #expect(cancelled, "\(watcher.console.output)\n\(watcher.console.error)")

            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            let unmarked = try await eventually(within: 30) {
                try HookedWatcher.botWrites(simulator).contains("issue label krz/app 1 --remove stale")
            }
            #expect(unmarked, "\(watcher.console.output)\n\(watcher.console.error)")
            #expect(watcher.clock.now == .zero, "no poll fell due: the deliveries did it")
            #expect(watcher.passes.first == "full" && watcher.passes.count >= 3, "\(watcher.passes)")
            #expect(try HookedWatcher.botWrites(simulator).count == 2)
            #expect(await watcher.stop() == 130)
        }
    }

    /// A start whose hook check the server does not answer holds no pass back.
    ///
    /// Issue 40: run in the loop, a `webhook list` answering 500 held the first passes for its
    /// retries, about 10 s. The push is acted on while the check's `webhook list` is still held,
    /// and the check's outcome is reported once the server answers. `gitbay-bench webhook
    /// --hook-check-failing` measures the latency (3 s asked).
    @Test func aHookCheckTheServerHoldsHoldsNoPassBack() async throws {
        let held = options + ["--fault", "hold,command=webhook list"]
        try await SimulatorProcess.run(state: forge, options: held) { simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            let checking = try await eventually(within: 60) { try await heldRequests(simulator) == 1 }
            try #require(checking, "the check never sent webhook list: \(watcher.console.error)")

            try await simulator.control(
                "{\"push\": {\"repo\": \"krz/app\", \"branch\": \"topic\", \"sha\": \"\(sha("d"))\"}}")
            let cancelled = try await eventually(within: 60) {
                try HookedWatcher.botWrites(simulator).contains("build cancel krz/app 1")
            }
            #expect(cancelled, "\(watcher.console.output)\n\(watcher.console.error)")
            #expect(try await heldRequests(simulator) == 1, "the check was still waiting for its answer")
            let page = try await hooked.get("")
            #expect(page.body.contains("The start's check of the hooks has not ended yet."), "\(page.body)")

            try await simulator.control("{\"release\": 1}")
            let reported = try await eventually(within: 60) {
                watcher.console.error.contains("webhooks: checked 1 repository; no problem found")
            }
            #expect(reported, "\(watcher.console.error)")
            let checked = try await hooked.get("")
            #expect(checked.body.contains("The start's check of the hooks: checked 1 repository"), "\(checked.body)")
            #expect(await watcher.stop() == 130)
        }
    }

    /// What a sender without the secret, or a replay, can do to a watcher: nothing.
    ///
    /// Each request is refused (or, for a replay, taken once, under any id), no write is sent, and
    /// no pass runs for it; gitbay's next delivery after a replay under a huge id is still taken.
    @Test func forgedOversizeReplayedAndOutOfScopeDeliveriesChangeNothing() async throws {
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30))
            let passesBefore = watcher.passes.count

            let comment = delivery(id: 990, kind: "issue.commented", repo: "krz/app", number: 1)
            #expect(try await hooked.post(comment, signature: nil) == 401, "no signature")
            #expect(try await hooked.post(comment, signature: "sha256=" + String(repeating: "0", count: 64)) == 401)
            let forged = Data(comment.utf8).map { $0 == UInt8(ascii: "1") ? UInt8(ascii: "2") : $0 }
            #expect(
                try await hooked.post(String(decoding: forged, as: UTF8.self), signature: hooked.sign(comment)) == 401,
                "a valid signature over another body")
            let oversize = "{\"event\": \"push\", \"pad\": \"" + String(repeating: "x", count: 2 << 20) + "\"}"
            #expect(try await hooked.post(oversize, signature: hooked.sign(oversize), event: "push", id: 992) == 413)
            let elsewhere = delivery(id: 991, kind: "issue.commented", repo: "krz/site", number: 1)
            #expect(try await hooked.post(elsewhere, signature: hooked.sign(elsewhere), id: 991) == 202, "acknowledged")
            // Nothing of that reached the watcher: the endpoint counts each outcome before it
            // answers and offers only an accepted delivery to the inbox, so with none accepted
            // (and the clock still at zero) no pass can start; the count of passes below shows it.
            let refused = try await hooked.metrics()
            #expect(!refused.contains("outcome=\"accepted\""), "\(refused)")
            #expect(refused.contains("{event=\"issue.commented\",outcome=\"out-of-scope\"} 1"), "\(refused)")
            #expect(watcher.passes.count == passesBefore, "\(watcher.passes)")

            // A signed delivery is taken, and the same one again is not.
            #expect(try await hooked.post(comment, signature: hooked.sign(comment)) == 202)
            let polled = try await eventually(within: 30) { watcher.passes.count == passesBefore + 1 }
            #expect(polled, "\(watcher.passes)")
            #expect(try await hooked.post(comment, signature: hooked.sign(comment)) == 202, "gitbay's retry")
            // The id is not signed: the same body under an id far beyond gitbay's is a replay.
            #expect(try await hooked.post(comment, signature: hooked.sign(comment), id: Int.max) == 202)
            let metrics = try await eventually(within: 30) {
                try await hooked.metrics().contains(
                    "gitbay_bot_webhook_deliveries_total{event=\"issue.commented\",outcome=\"duplicate\"} 2")
            }
            #expect(watcher.passes.count == passesBefore + 1, "the replays ran no pass: \(watcher.passes)")
            // gitbay's next delivery, under a smaller id than the replay's, is taken.
            let next = comment.replacingOccurrences(of: "12:00:00.000Z", with: "12:00:01.000Z")
            #expect(try await hooked.post(next, signature: hooked.sign(next), id: 991) == 202)
            let taken = try await eventually(within: 30) { watcher.passes.count == passesBefore + 2 }
            #expect(taken, "\(watcher.passes)")
            let scraped = try await hooked.metrics()
            #expect(metrics, "\(scraped)")
            for line in [
                "{event=\"issue.commented\",outcome=\"bad-signature\"} 3",
                "{event=\"issue.commented\",outcome=\"out-of-scope\"} 1",
                "{event=\"issue.commented\",outcome=\"accepted\"} 4",
                "{event=\"issue.commented\",outcome=\"duplicate\"} 2",
            ] {
                #expect(scraped.contains("gitbay_bot_webhook_deliveries_total" + line), "\(line) in \(scraped)")
            }
            #expect(watcher.passes.count == passesBefore + 2, "\(watcher.passes)")
            #expect(try HookedWatcher.botWrites(simulator).isEmpty)
            #expect(watcher.clock.now == .zero)
            #expect(await watcher.stop() == 130)
        }
    }

    /// Deliveries that stop coming are noticed from the feed the watcher still polls: within the
    /// grace after the poll that read an event no delivery announced, `/healthz` says so, a full
    /// pass runs, polling returns to its interval, and what the poll read was acted on.
    @Test func deliveriesThatStopAreNoticedAndTheFeedCatchesUp() async throws {
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30), "\(watcher.console.error)")
            #expect(try await hooked.get("healthz").status == 200)
            // The start's check, beside the passes, found the hook in order: the relaxed pace from
            // the next poll on.
            let checked = try await eventually(within: 60) {
                watcher.console.error.contains("webhooks: checked 1 repository; no problem found")
            }
            #expect(checked, "\(watcher.console.error)")
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() == .seconds(330), "\(watcher.console.error)")

            try await simulator.control("{\"deliveries_paused\": true}")
            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            watcher.clock.advance(to: .seconds(330))
            // The poll read the comment, which no delivery announced: the idle spell ends when its
            // grace does, a minute on (two intervals of 30 s, at least 60 s).
            #expect(try await watcher.nextWait() == .seconds(390) + .milliseconds(1))
            let unmarked = try await eventually(within: 30) {
                try HookedWatcher.botWrites(simulator).contains("issue label krz/app 1 --remove stale")
            }
            #expect(unmarked, "the poll caught the comment up")

            watcher.clock.advance(to: .seconds(391))
            #expect(try await watcher.nextWait() == .seconds(421), "missed: a full pass, then the normal pace")
            #expect(watcher.passes.suffix(2) == ["events", "full"], "\(watcher.passes)")
            let health = try await hooked.get("healthz")
            #expect(health.status == 503)
            #expect(health.body.hasPrefix("webhook deliveries are failing: 1 events"), "\(health.body)")
            #expect(try await hooked.get("metrics").body.contains("gitbay_bot_webhook_deliveries_failing 1"))

            // Deliveries come again: the held one, then nothing is overdue.
            try await simulator.control("{\"deliveries_paused\": false}")
            let recovered = try await eventually(within: 30) {
                try await hooked.get("healthz").status == 200
            }
            let healthz = try await hooked.get("healthz").body
            #expect(recovered, "\(healthz)")
            #expect(try HookedWatcher.botWrites(simulator) == ["issue label krz/app 1 --remove stale"], "nothing twice")
            #expect(await watcher.stop() == 130)
        }
    }
}
