import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread of its own and answers its result: the clients block on sockets, and
/// the cooperative pool's few threads must stay free for the other suites.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Blocks until `condition` holds, checking every 10 ms, at most `timeout`; answers whether it held.
@discardableResult
func waitUntil(within timeout: Duration = .seconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        usleep(10_000)
    }
    return true
}
