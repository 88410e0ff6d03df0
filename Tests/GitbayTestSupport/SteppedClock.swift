import Synchronization
import Timekeeping

/// A ``MonotonicClock`` that moves only when a test moves it, so a watcher's every wait is a step
/// the test takes.
///
/// A wait until an instant already reached returns at once; any other suspends until
/// ``advance(to:)`` reaches it or the task is cancelled. ``nextWait(within:)`` answers the instant
/// the watcher waits for, so a test knows the watcher has finished what it was doing. Unlike
/// ``ManualClock``, whose sleeps end at once, so that the watch's tests move the watcher's time
/// without moving its client's.
public final class SteppedClock: MonotonicClock {
    private struct Sleeper {
        var until: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Duration.zero
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// A clock at zero with no wait under way.
    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    /// Moves the reading forward by `duration`, as a pass that takes time would.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves the reading to `instant` (never back), ending the waits it reaches.
    public func advance(to instant: Duration) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = max(state.now, instant)
            let due = state.sleepers.filter { $0.value.until <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// The instant the earliest wait under way is for, once one is; `nil` if none began within
    /// `seconds` of real time (the bound that keeps a broken watcher from hanging the test).
    public func nextWait(within seconds: Double = 60) async throws -> Duration? {
        let found = try await eventually(within: seconds, every: .milliseconds(5)) {
            state.withLock { !$0.sleepers.isEmpty }
        }
        return found ? state.withLock { $0.sleepers.values.map(\.until).min() } : nil
    }

    public func sleep(until instant: Duration) async throws {
        let id = state.withLock { state -> Int? in
            guard instant > state.now else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return try Task.checkCancellation() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard instant > state.now, !Task.isCancelled else { return true }
                    state.sleepers[id] = Sleeper(until: instant, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
