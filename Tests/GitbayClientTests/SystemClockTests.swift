import Testing
import Timekeeping

/// The real clock's two promises the client and the watcher lean on: a deadline already passed
/// costs no wait, and a cancel ends a long wait at once.
///
/// Time-limited, so a wait that does not end as promised fails the suite rather than hang it.
@Suite(.timeLimit(.minutes(1))) struct SystemClockTests {
    @Test func aPassedDeadlineReturnsAtOnceAndReadingsNeverGoBack() async throws {
        let clock = SystemClock()
        let first = clock.now
        try await clock.sleep(until: .zero)
        try await clock.sleep(for: .seconds(-5))
        #expect(clock.now >= first)
    }

    @Test func aCancelEndsAnHourLongWaitWithCancellationError() async throws {
        let clock = SystemClock()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let wait = Task {
            start.yield()
            try await clock.sleep(until: clock.now + .seconds(3600))
        }
        for await _ in started { break }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
        #expect(clock.now < .seconds(3600))
    }
}
