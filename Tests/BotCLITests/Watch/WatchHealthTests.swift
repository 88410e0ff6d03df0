import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Synchronization
import Testing

@testable import BotCLI
@testable import Watch

private let start = Date(timeIntervalSince1970: 1_800_000_000)

/// A watcher's status at `start`, polling every 30 s.
private func status() -> WatchStatus {
    WatchStatus(server: "https://gitbay.example", started: start, interval: 30, fullEvery: 900, dryRun: false)
}

/// `/healthz` and the watchdog's judgement: a successful pass within max(3 intervals, twice the
/// longest pass) is healthy; a watcher moves while it waits, idles or sends requests.
@Suite struct WatchHealthTests {
    @Test func aStartingWatcherIsHealthyForThreeIntervalsThenSaysWhyNot() {
        var watcher = status()
        #expect(WatchHealth.verdict(watcher, now: start + 89).healthy)
        watcher.lastFailure = "the server answers 503: it is busy"
        let verdict = WatchHealth.verdict(watcher, now: start + 94)
        #expect(!verdict.healthy)
        #expect(verdict.line == "no successful pass in the 94 s since the start: the server answers 503: it is busy")
    }

    @Test func theLastSuccessfulPassSetsTheClockAndTheLongestPassCanExtendIt() {
        var watcher = status()
        watcher.lastSuccessfulPassEnded = start + 100
        #expect(WatchHealth.verdict(watcher, now: start + 190).healthy)
        watcher.lastFailure = "the server cannot be reached: connection refused"
        let late = WatchHealth.verdict(watcher, now: start + 194)
        #expect(!late.healthy)
        #expect(late.line == "no successful pass for 94 s: the server cannot be reached: connection refused")
        watcher.longestPass = 60
        #expect(WatchHealth.verdict(watcher, now: start + 219).healthy, "twice a 60 s pass is 120 s")
        #expect(!WatchHealth.verdict(watcher, now: start + 221).healthy)
    }

    @Test func aPassThatRunsTooLongIsNamedWhenNothingFailed() {
        var watcher = status()
        watcher.lastSuccessfulPassEnded = start
        watcher.passStarted = start + 30
        let verdict = WatchHealth.verdict(watcher, now: start + 100)
        #expect(verdict.line == "no successful pass for 100 s: a pass has been running for 70 s")
    }

    @Test func aStuckRequestStopsProgressButWaitsAndIdleSpellsDoNot() {
        var watcher = status()
        watcher.passStarted = start
        watcher.lastProgress = start + 5
        #expect(WatchHealth.isProgressing(watcher, now: start + 95))
        #expect(!WatchHealth.isProgressing(watcher, now: start + 96), "no request sent for 91 s")
        watcher.currentWait = WatchStatus.Wait(cause: .rateLimit, until: start + 300)
        #expect(WatchHealth.isProgressing(watcher, now: start + 200), "a 429's wait is progress")
        #expect(!WatchHealth.isProgressing(watcher, now: start + 340), "a wait overrun by an interval is not")
        watcher.currentWait = nil
        watcher.passStarted = nil
        watcher.nextPoll = start + 120
        #expect(WatchHealth.isProgressing(watcher, now: start + 140))
    }

    @Test func theTelemetryRecordsRequestsWaitsByCauseAndPasses() {
        let clock = SteppedClock()
        let telemetry = WatchTelemetry(
            server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: clock,
            origin: start)
        telemetry.passBegins()
        telemetry.record(.sending(argv: ["issue", "list"], effect: .read, attempt: 1))
        telemetry.record(
            .retrying(argv: ["issue", "list"], attempt: 2, failure: GitbayError(kind: .serverError, message: "boom")))
        telemetry.record(.waiting(.seconds(2), reason: .backoff))
        #expect(telemetry.status.currentWait?.cause == .busy, "a 5xx's backoff waits for a failing server")
        #expect(telemetry.status.lastFailure == "the server fails: boom", "a retried failure is the latest")
        telemetry.record(.waiting(.milliseconds(500), reason: .pacing(.requests)))
        telemetry.record(.sending(argv: ["issue", "close"], effect: .write, attempt: 1))
        clock.advance(by: .seconds(12))
        let becameReady = telemetry.passSucceeded(
            WatchStatus.PassRecord(
                kind: "full", started: start, ended: start + 12, requests: 2, actions: 1, applied: 1, failed: 0),
            outcomes: [WatchStatus.ActionKey(rule: "close-stale", outcome: "applied")])
        #expect(becameReady, "the first full pass makes the watcher ready")
        let recorded = telemetry.status
        #expect(recorded.reads == 1 && recorded.writes == 1)
        #expect(recorded.waits == [.busy: 1, .pacing: 1, .rateLimit: 0, .transport: 0])
        #expect(recorded.passes["full"] == 1 && recorded.ready)
        #expect(recorded.longestPass == 12 && recorded.currentWait == nil && recorded.lastFailure == nil)
        #expect(recorded.nextFullPass == start + 912)
        #expect(recorded.actions == [WatchStatus.ActionKey(rule: "close-stale", outcome: "applied"): 1])
        telemetry.passBegins()
        let again = telemetry.passSucceeded(
            WatchStatus.PassRecord(
                kind: "full", started: start + 12, ended: start + 13, requests: 1, actions: 0, applied: 0, failed: 0),
            outcomes: [])
        #expect(!again, "READY=1 is said once")
    }
}
