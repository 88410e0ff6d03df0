import GitbayClient
import Synchronization

/// A ``ClientClock`` whose sleeps return at once and move its reading forward.
///
/// Pacing and backoff tests read back every wait the client asked for, in order, and run in no time.
public final class ManualClock: ClientClock {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    public init() {}

    public var now: Duration {
        state.withLock { $0.now }
    }

    /// Every sleep requested so far.
    public var sleeps: [Duration] {
        state.withLock { $0.sleeps }
    }

    /// Moves the reading forward without a sleep, as time passing between runs would.
    public func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.now += duration
            state.sleeps.append(duration)
        }
    }
}
