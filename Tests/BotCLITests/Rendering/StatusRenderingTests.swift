import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI
@testable import RuleEngine
@testable import Watch

private let start = Date(timeIntervalSince1970: 1_800_000_000)

/// A watcher that has run one full pass and applied one action, with names that need escaping.
private func busyWatcher() -> WatchStatus {
    var status = WatchStatus(
        server: "https://gitbay.example", started: start, interval: 30, fullEvery: 900, dryRun: false)
    status.account = "triage-bot"
    status.passes["full"] = 1
    status.reads = 40
    status.writes = 1
    status.actions[WatchStatus.ActionKey(rule: "say \"hi\"\\now\nplease", outcome: "applied")] = 1
    status.lastPassEnded = start + 20
    status.lastSuccessfulPassEnded = start + 20
    status.feedPosition = 812
    status.rules = [WatchStatus.LoadedRule(name: "close-<stale>", kind: "issues")]
    status.recentPasses = [
        WatchStatus.PassRecord(
            kind: "full", started: start, ended: start + 20, requests: 41, actions: 1, applied: 1, failed: 0)
    ]
    status.recentActions = [
        WatchStatus.ActionRecord(
            at: start + 19, rule: "close-<stale>", item: "krz/app#7", command: "issue close krz/app#7",
            outcome: "applied", reasons: ["idle > 60d (61d 3h)", "labels has stale ([stale])"])
    ]
    return status
}

/// `/metrics` and the status page, rendered from a status value: the real Prometheus parser reads
/// the metrics, and the page escapes what it shows.
@Suite struct StatusRenderingTests {
    @Test func theMetricsParseWithPrometheusClientAndEscapeLabelValues() async throws {
        let text = MetricsExposition.render(busyWatcher(), now: start + 25, residentBytes: 52_428_800)
        let families = try await PrometheusText.parse(text)
        func family(_ name: String) throws -> PrometheusText.Family {
            try #require(families.first { $0.name == name }, "\(name) in \(families.map(\.name))")
        }
        let actions = try family("gitbay_bot_actions")
        #expect(actions.type == "counter")
        #expect(actions.samples.first?.labels["rule"] == "say \"hi\"\\now\nplease")
        #expect(try family("gitbay_bot_passes").samples.first { $0.labels["kind"] == "full" }?.value == 1)
        #expect(try family("gitbay_bot_requests").samples.map(\.value).sorted() == [1, 40])
        #expect(try family("gitbay_bot_last_successful_pass_timestamp_seconds").samples.first?.value == 1_800_000_020)
        #expect(try family("gitbay_bot_feed_position").samples.first?.value == 812)
        #expect(try family("gitbay_bot_resident_memory_bytes").samples.first?.value == 52_428_800)
        #expect(try family("gitbay_bot_healthy").samples.first?.value == 1)
        #expect(try family("gitbay_bot_waits").samples.count == WatchStatus.WaitCause.allCases.count)
    }

    @Test func aGaugeWithNothingToSayHasNoSampleRatherThanAZero() async throws {
        let fresh = WatchStatus(
            server: "https://gitbay.example", started: start, interval: 30, fullEvery: 900, dryRun: true)
        let families = try await PrometheusText.parse(MetricsExposition.render(fresh, now: start, residentBytes: nil))
        for name in ["gitbay_bot_last_pass_timestamp_seconds", "gitbay_bot_feed_position"] {
            #expect(families.first { $0.name == name }?.samples == [], "\(name)")
        }
    }

    @Test func thePageShowsRulesPassesActionsAndEscapesThem() {
        let page = StatusPage.render(busyWatcher(), now: start + 25)
        #expect(page.contains("<code>close-&lt;stale&gt;</code>"))
        #expect(!page.contains("close-<stale>"))
        #expect(page.contains("<li>idle &gt; 60d (61d 3h)</li>"))
        #expect(page.contains("<code>issue close krz/app#7</code>"))
        #expect(page.contains("ok: the last successful pass ended 5 s ago"))
        #expect(page.contains("Feed position: event 812."))
        #expect(!page.contains("<script"))
        #expect(!page.contains("&lt;time"), "times are elements, not text")
    }

    @Test func deliveriesFailingShowOnThePageTheMetricsAndHealthz() async throws {
        var status = busyWatcher()
        status.deliveryHealth = DeliveryWatch.Health.failing.rawValue
        status.deliveriesMissed = 2
        status.pollEvery = 30
        status.lastDelivery = start + 10
        status.unhooked = ["krz/<site>"]
        status.deliveries[WatchStatus.DeliveryKey(event: "push", outcome: "accepted")] = 3
        status.deliveries[WatchStatus.DeliveryKey(event: "push", outcome: "bad-signature")] = 1
        status.deliveries[WatchStatus.DeliveryKey(event: "issue.commented", outcome: "duplicate")] = 1
        let verdict = WatchHealth.verdict(status, now: start + 25)
        #expect(!verdict.healthy)
        #expect(verdict.line.hasPrefix("webhook deliveries are failing: 2 events the feed showed never came"))
        let page = StatusPage.render(status, now: start + 25)
        #expect(page.contains("Deliveries are failing: 2 events"))
        #expect(page.contains("<code>krz/&lt;site&gt;</code>"))
        #expect(page.contains("<td><code>push</code></td><td>bad-signature</td><td>1</td>"))
        let families = try await PrometheusText.parse(
            MetricsExposition.render(status, now: start + 25, residentBytes: nil))
        let deliveries = try #require(families.first { $0.name == "gitbay_bot_webhook_deliveries" })
        #expect(deliveries.samples.first { $0.labels == ["event": "push", "outcome": "accepted"] }?.value == 3)
        #expect(families.first { $0.name == "gitbay_bot_webhook_deliveries_failing" }?.samples.first?.value == 1)
        #expect(families.first { $0.name == "gitbay_bot_webhook_events_missed" }?.samples.first?.value == 2)
        #expect(
            families.first { $0.name == "gitbay_bot_webhook_last_delivery_timestamp_seconds" }?.samples.first?.value
                == 1_800_000_010)
        #expect(families.first { $0.name == "gitbay_bot_healthy" }?.samples.first?.value == 0)
    }

    @Test func aWatcherWithoutWebhooksShowsNoneOfThem() async throws {
        let page = StatusPage.render(busyWatcher(), now: start + 25)
        #expect(!page.contains("Webhook deliveries"))
        let families = try await PrometheusText.parse(
            MetricsExposition.render(busyWatcher(), now: start + 25, residentBytes: nil))
        #expect(families.first { $0.name == "gitbay_bot_webhook_deliveries_failing" }?.samples == [])
    }

    @Test func theServerIsShownWithoutTheUserOrPasswordItsURLMayCarry() throws {
        let url = try #require(URL(string: "https://bot:s3cret@gitbay.example:8443/base"))
        #expect(ForgeConnection.shown(url) == "https://gitbay.example:8443/base")
    }

    @Test func thePageSaysWhatTheWatcherWaitsFor() {
        var status = busyWatcher()
        status.currentWait = WatchStatus.Wait(cause: .rateLimit, until: start + 80)
        status.lastFailure = "the server is rate-limiting this account (HTTP 429)"
        status.nextPoll = start + 40
        let page = StatusPage.render(status, now: start + 30)
        #expect(page.contains("Waiting 50 s more: the server is rate-limiting this account."))
        #expect(page.contains("Last failure: the server is rate-limiting this account (HTTP 429)"))
        #expect(!page.contains("Next poll"), "a wait under way is what the watcher does now")
        status.currentWait = nil
        let idle = StatusPage.render(status, now: start + 30)
        #expect(idle.contains("Next poll of the feed at <time datetime=\"2027-01-15T08:00:40Z\">"))
    }

    /// The bot's own queue is on the page: a pass that judges an item replaces what waited on
    /// it, and leaves what waits on items it did not judge.
    @Test func waitingCommandsAreShownAndAPassReplacesOnlyWhatItJudged() {
        let telemetry = WatchTelemetry(
            server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: SteppedClock(),
            origin: start)
        func waiting(_ number: Int, _ why: String) -> PlanEntry {
            let item = PlannedItem(
                repository: "krz/app", kind: ItemKind(rawValue: "merge_requests"), number: number, title: "t",
                reference: "krz/app!\(number)")
            let command = PlannedCommand(comment: 9, author: "alice", text: "/merge", line: 1, at: start)
            return PlanEntry(
                rule: "merge-command", item: item, reasons: [],
                actions: [PlannedAction(action: "merge", status: .waiting, note: why)], precondition: .all([]),
                command: command)
        }
        telemetry.commandsWait(in: [waiting(3, "gitbay's gates do not pass: <checks>"), waiting(4, "checks")]) { _ in
            true
        }
        #expect(
            StatusPage.render(telemetry.status, now: start).contains(
                "krz/app!3: /merge by @alice (comment 9) waits: gitbay&#39;s gates do not pass: &lt;checks&gt;"))
        telemetry.commandsWait(in: []) { $0.reference == "krz/app!3" }
        let page = StatusPage.render(telemetry.status, now: start)
        #expect(!page.contains("krz/app!3:") && page.contains("krz/app!4: /merge"), "\(page)")
        telemetry.commandsWait(in: []) { _ in true }
        #expect(StatusPage.render(telemetry.status, now: start).contains("No command waits."))
    }
}
