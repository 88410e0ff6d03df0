/// The client's view of time: a monotonic reading and a way to wait.
///
/// Pacing and backoff read and spend time only through this, so tests substitute a clock whose
/// sleeps return at once and advance its reading, and check every wait without really waiting.
public protocol ClientClock: Sendable {
    /// Time elapsed since some fixed start; never goes backwards.
    var now: Duration { get }
    /// Waits `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real, monotonic clock.
public struct SystemClientClock: ClientClock {
    private let start = ContinuousClock.now

    public init() {}

    public var now: Duration { ContinuousClock.now - start }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await Task.sleep(for: duration)
    }
}
