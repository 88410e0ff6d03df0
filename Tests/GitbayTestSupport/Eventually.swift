/// Polls `condition` every `every` until it holds; false only if it never did within `seconds`.
///
/// The suite's one poll, for an event that signals nothing a test could wait on (a file appearing,
/// another process ending, a server's counter moving): its interval sleep is the only sleep a test
/// may wait with, and it is always bounded. The bound keeps a test from hanging, and is never what
/// a working bot and simulator come near; the last look after the deadline counts, since a busy
/// machine may wake the poller late. The deadline is an instant of the monotonic clock the sleep
/// runs on: a wall clock set back or forward (NTP, a test's clock) neither stretches nor cuts it.
public func eventually(
    within seconds: Double = 60, every interval: Duration = .milliseconds(50),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    while clock.now < deadline {
        if try await condition() { return true }
        try await clock.sleep(for: interval)
    }
    return try await condition()
}
