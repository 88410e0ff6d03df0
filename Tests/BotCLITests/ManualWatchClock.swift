import Synchronization

@testable import BotCLI

/// A ``WatchClock`` whose waits return at once, moving its reading to the instant waited for.
///
/// Kept apart from GitbayTestSupport's `ManualClock` (a `ClientClock`, which sleeps for a
/// duration) so that the watch's tests wait until instants without changing the client's.
final class ManualWatchClock: WatchClock {
    private let reading = Mutex(Duration.zero)

    var now: Duration { reading.withLock { $0 } }

    /// Moves the reading forward, as a pass that takes time would.
    func advance(by duration: Duration) {
        reading.withLock { $0 += duration }
    }

    func sleep(until instant: Duration) async throws {
        try Task.checkCancellation()
        reading.withLock { $0 = max($0, instant) }
    }
}
