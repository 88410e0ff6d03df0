import GitbayTestSupport
import Synchronization
import Testing

@testable import BotCLI
@testable import Watch

/// systemd's watchdog fed on the watcher's clock: every half interval while the watcher moves,
/// never once it is stuck; no real time passes.
@Suite(.timeLimit(.minutes(1))) struct WatchdogTests {
    /// A service manager that asks for the watchdog every `watchdogInterval` and keeps what it is told.
    final class RecordingNotifier: ServiceNotifier {
        let watchdogInterval: Duration?
        private let messages = Mutex<[[String]]>([])

        init(watchdogInterval: Duration?) {
            self.watchdogInterval = watchdogInterval
        }

        var fed: Int { messages.withLock { $0.filter { $0 == ["WATCHDOG=1"] }.count } }

        func notify(_ assignments: [String]) {
            messages.withLock { $0.append(assignments) }
        }
    }

    @Test func itFeedsEveryHalfIntervalWhileTheWatcherMovesAndStarvesOnceItIsStuck() async throws {
        let clock = SteppedClock()
        let notifier = RecordingNotifier(watchdogInterval: .seconds(20))
        let telemetry = WatchTelemetry(
            server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: clock)
        let watchdog = try #require(Watchdog(notifier: notifier, telemetry: telemetry, clock: clock))
        defer { watchdog.stop() }

        #expect(try await clock.nextWait() == .seconds(10), "it waits half the interval, on the clock")
        #expect(notifier.fed == 1)
        clock.advance(to: .seconds(10))
        #expect(try await clock.nextWait() == .seconds(20))
        #expect(notifier.fed == 2)

        // Nothing moved for longer than three polls (90 s): the watcher is stuck.
        clock.advance(to: .seconds(200))
        #expect(try await clock.nextWait() == .seconds(210))
        #expect(notifier.fed == 2, "a stuck watcher is not fed")

        telemetry.passBegins()
        clock.advance(to: .seconds(210))
        #expect(try await clock.nextWait() == .seconds(220))
        #expect(notifier.fed == 3, "fed again once it moves")
    }

    @Test func thereIsNoneWhenSystemdWatchesNothing() {
        let clock = SteppedClock()
        let telemetry = WatchTelemetry(
            server: "https://gitbay.example", interval: 30, fullEvery: 900, dryRun: false, clock: clock)
        #expect(Watchdog(notifier: RecordingNotifier(watchdogInterval: nil), telemetry: telemetry, clock: clock) == nil)
    }
}
