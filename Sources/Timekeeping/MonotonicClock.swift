/// The one view of time the client, the watcher and their tests share: a monotonic reading and a
/// wait until an absolute deadline on it.
///
/// Injected so that tests substitute a clock they move themselves and no real interval passes.
/// Deadlines are absolute readings of ``now``, not durations, so a wait that starts late (a busy
/// machine, a slow step before it) still ends when it was due, and a loop's schedule does not drift
/// by the time each step took. Readings never step back with the wall clock (an NTP correction, a
/// resumed VM).
public protocol MonotonicClock: Sendable {
    /// The time since the clock's start; never goes backwards.
    var now: Duration { get }

    /// Returns at `deadline` (a reading of ``now``), at once when it has passed; a cancel ends the
    /// wait at once, with `CancellationError`.
    func sleep(until deadline: Duration) async throws
}

extension MonotonicClock {
    /// Waits `duration` from now: a deadline of `now + duration`.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}
