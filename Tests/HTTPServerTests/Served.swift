import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
