/// Wall-clock timing for the benchmarks, in seconds as a `Double`.
enum BenchClock {
    /// Runs `body` and returns its result with the seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, seconds(ContinuousClock.now - start))
    }

    /// Runs `body` and returns its result with the seconds it took, awaiting it.
    static func timeAwaiting<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try await body()
        return (result, seconds(ContinuousClock.now - start))
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
