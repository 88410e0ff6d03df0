/// The real ``WatchClock``: Swift's `ContinuousClock`, which keeps counting while the machine sleeps.
///
/// A suspended laptop or VM that resumes sees the time it was away, as the forge does, so a
/// full pass that fell due meanwhile runs at once.
public struct ContinuousWatchClock: WatchClock {
    private let origin = ContinuousClock.now

    /// A clock whose zero is now.
    public init() {}

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until instant: Duration) async throws {
        try await Task.sleep(until: origin + instant, clock: .continuous)
    }
}
