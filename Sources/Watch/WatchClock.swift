/// The monotonic time a watcher runs on: how long since it started, and waits until an instant.
///
/// Injected so that tests drive the watcher with a manual clock and no real interval passes; the
/// real one is ``ContinuousWatchClock``. Its readings never step back with the wall clock (an NTP
/// correction, a resumed VM), so neither the schedule nor the health it judges can.
public protocol WatchClock: Sendable {
    /// The time since the clock's start.
    var now: Duration { get }

    /// Returns at `instant` (a reading of ``now``), at once when it has passed; a cancel ends the
    /// wait at once, with `CancellationError`.
    func sleep(until instant: Duration) async throws
}
