/// The real ``MonotonicClock``: Swift's `ContinuousClock`, which keeps counting while the machine
/// sleeps.
///
/// A suspended laptop or VM that resumes sees the time it was away, as the forge does, so a pass or
/// a retry that fell due meanwhile runs at once.
public struct SystemClock: MonotonicClock {
    private let origin = ContinuousClock.now

    /// A clock whose zero is now.
    public init() {}

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) async throws {
        guard deadline > now else { return }
        try await Task.sleep(until: origin + deadline, clock: .continuous)
    }
}
