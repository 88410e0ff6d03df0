import GitbayClient
import Synchronization
import Timekeeping

/// A ``MonotonicClock`` whose sleeps return at once and move its reading to their deadline.
///
/// Pacing and backoff tests read back every wait the client asked for, in order, and run in no time.
/// For a test that moves time itself, step by step, see ``SteppedClock``.
public final class ManualClock: MonotonicClock {
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

    /// Records the wait (the deadline less the reading, none when it has passed) and moves there.
    public func sleep(until deadline: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(max(deadline - state.now, .zero))
            state.now = max(state.now, deadline)
        }
    }
}
