import Foundation
import GitbayTestSupport
import Testing

/// The person's comment on the stale issue, as gitbay records it and delivers it.
private func comment(_ simulator: SimulatorProcess, _ message: String) async throws {
    let status = try await simulator.write(
        ["issue", "comment", "krz/app", "1", "--message", message], token: ForgeActivity.personToken)
    try #require(status == 200)
}

/// How many times `text` holds `phrase`.
private func occurrences(of phrase: String, in text: String) -> Int {
    text.components(separatedBy: phrase).count - 1
}

/// The alert docs/recipes.md recommends for deliveries that fail: its `expr`, which must be
/// `METRIC == VALUE`, and whether it waits (`for:`) before it fires.
private func documentedAlert(_ name: String) throws -> (metric: String, value: Double, waits: Bool) {
    let recipes = try String(
        contentsOf: SimulatorProcess.repositoryRoot.appendingPathComponent("docs/recipes.md"), encoding: .utf8)
    let rule = try #require(recipes.components(separatedBy: "- alert: \(name)\n").dropFirst().first)
        .components(separatedBy: "- alert:")[0]
    let lines = rule.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let expr = try #require(lines.first { $0.hasPrefix("expr:") }).dropFirst("expr:".count)
    let terms = expr.split(separator: " ")
    try #require(terms.count == 3 && terms[1] == "==", "\(expr) is not METRIC == VALUE")
    return (String(terms[0]), try #require(Double(terms[2])), lines.contains { $0.hasPrefix("for:") })
}

/// Whether the scraped `metrics` make the alert `name` of docs/recipes.md fire at Prometheus's
/// first evaluation after the scrape.
private func alertFires(_ name: String, on metrics: String) throws -> Bool {
    let alert = try documentedAlert(name)
    guard !alert.waits else { return false }
    return metrics.split(separator: "\n").contains { $0 == "\(alert.metric) \(Int(alert.value))" }
}

/// A webhook secret that does not match the hook's: each delivery gitbay sends is refused (401),
/// and that is itself the sign that deliveries fail, said at once on `/healthz`, `/metrics`, the
/// status page and, once a spell, stderr (issue 41: a wrong secret went unsaid, and a secret
/// changed while `watch` ran was declared only about 6 minutes later, by the feed).
@Suite struct RefusedDeliveryJourneyTests {
    private let alert = "GitbayBotWebhookDeliveriesFailing"

    @Test func aWrongSecretFromTheStartIsDeclaredAtTheFirstRefusedDelivery() async throws {
        try await SimulatorProcess.run(state: HookedWatcher.forge, options: HookedWatcher.simulatorOptions) {
            simulator in
            let hooked = try await HookedWatcher(simulator, hookSecret: "a secret the watcher does not know")
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30), "\(watcher.console.error)")
            #expect(try await hooked.get("healthz").status == 200, "nothing refused yet")

            try await comment(simulator, "still broken")
            try await comment(simulator, "really")
            // The endpoint counts each answer before it sends it, so once the simulator saw both
            // refused, both are counted.
            let refused = try await eventually(within: 30) {
                ((try await simulator.stats()["webhooks"] as? [String: Any])?["failed"] as? NSNumber)?.intValue == 2
            }
            let stats = try await simulator.stats()
            try #require(refused, "gitbay never tried both deliveries: \(stats)")
            #expect(watcher.clock.now == .zero, "within the first interval: no poll fell due")

            let health = try await hooked.get("healthz")
            #expect(health.status == 503)
            #expect(
                health.body.hasPrefix(
                    "webhook deliveries are refused: 2 from gitbay in a row; the last: the signature does not match "
                        + "the body"), "\(health.body)")
            let metrics = try await hooked.metrics()
            for line in [
                "gitbay_bot_webhook_deliveries_failing 1", "gitbay_bot_webhook_deliveries_refused_total 2",
                "gitbay_bot_healthy 0",
            ] {
                #expect(metrics.contains(line + "\n"), "\(line) in \(metrics)")
            }
            #expect(try alertFires(alert, on: metrics), "\(metrics)")
            let page = try await hooked.get("")
            #expect(page.body.contains("Deliveries are refused: 2 from gitbay"), "\(page.body)")
            let error = watcher.console.error
            #expect(occurrences(of: "webhook deliveries are refused", in: error) == 1, "once a spell: \(error)")
            #expect(!error.contains(HookedWatcher.secret), "the secret is never said")
            #expect(await watcher.stop() == 130)
        }
    }

    /// A hook whose secret changes while the watcher relies on its deliveries (the relaxed poll is
    /// five minutes away) is declared at the first delivery refused, not at the poll, and the
    /// watcher polls at its normal pace again; deliveries accepted again end the spell, and a new
    /// one is said again.
    @Test func aSecretChangedWhileWatchingIsDeclaredAtOnceAndEachSpellIsSaidOnce() async throws {
        try await SimulatorProcess.run(state: HookedWatcher.forge, options: HookedWatcher.simulatorOptions) {
            simulator in
            let hooked = try await HookedWatcher(simulator)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30), "\(watcher.console.error)")
            let checked = try await eventually(within: 60) {
                watcher.console.error.contains("webhooks: checked 1 repository; no problem found")
            }
            #expect(checked, "\(watcher.console.error)")
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() == .seconds(330), "the relaxed pace: \(watcher.console.error)")

            try await hooked.rekey(simulator, secret: "the hook's new secret")
            try await comment(simulator, "still broken")
            let declared = try await eventually(within: 30) { try await hooked.get("healthz").status == 503 }
            let health = try await hooked.get("healthz").body
            #expect(declared, "\(health)")
            #expect(health.hasPrefix("webhook deliveries are refused: 1 from gitbay in a row; the last: "), "\(health)")
            #expect(watcher.clock.now == .seconds(30), "declared before the next poll fell due")
            // The watcher's idle spell shortens to the normal pace, an interval after the last
            // poll began, and that poll acts on the comment gitbay could not deliver.
            let normalPace = try await eventually(within: 30) { try await watcher.nextWait() == .seconds(60) }
            #expect(normalPace, "\(watcher.console.error)")
            watcher.clock.advance(to: .seconds(60))
            let unmarked = try await eventually(within: 30) {
                try HookedWatcher.botWrites(simulator).contains("issue label krz/app 1 --remove stale")
            }
            #expect(unmarked, "\(watcher.console.output)\n\(watcher.console.error)")
            let scraped = try await hooked.metrics()
            #expect(try alertFires(alert, on: scraped), "\(scraped)")
            #expect(occurrences(of: "webhook deliveries are refused", in: watcher.console.error) == 1)

            // The secrets agree again: the next delivery is accepted and ends the spell.
            try await hooked.rekey(simulator, secret: HookedWatcher.secret)
            try await comment(simulator, "still broken, again")
            let recovered = try await eventually(within: 30) { try await hooked.get("healthz").status == 200 }
            let healthy = try await hooked.get("healthz").body
            #expect(recovered, "\(healthy)")
            #expect(try await hooked.metrics().contains("gitbay_bot_webhook_deliveries_failing 0\n"))
            // After 1 refused, or more when gitbay's retry of it (30 s on) came first.
            #expect(watcher.console.error.contains("note: webhook deliveries are accepted again after "))

            // And a new spell is said again, once.
            try await hooked.rekey(simulator, secret: "yet another secret")
            try await comment(simulator, "and again")
            let again = try await eventually(within: 30) { try await hooked.get("healthz").status == 503 }
            let refusedAgain = try await hooked.get("healthz").body
            #expect(again, "\(refusedAgain)")
            #expect(occurrences(of: "webhook deliveries are refused", in: watcher.console.error) == 2)
            #expect(await watcher.stop() == 130)
        }
    }
}
