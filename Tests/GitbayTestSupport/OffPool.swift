import Foundation

/// Runs `body` on a thread of its own and answers its result.
///
/// For test code that blocks (a socket client, a flood of writes): the cooperative pool has as
/// many threads as cores, two here, and every suite of the test process shares them, so a test
/// that blocks one stalls the bounded waits of all the others.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
