import Synchronization

/// Suspends until the calling task is cancelled, then throws `CancellationError`.
///
/// For stand-ins of waits that only a stop may end (a clock's sleep, a write's wait for its
/// budget): no time passes and nothing else resumes it, so a test that returns from it has seen
/// the cancellation reach the wait. Its bound is the test's own time limit.
public func untilCancelled() async throws {
    let state = Mutex<(cancelled: Bool, waiting: CheckedContinuation<Void, any Error>?)>((false, nil))
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let cancelled = state.withLock { state in
                if !state.cancelled { state.waiting = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
        }
    } onCancel: {
        let waiting = state.withLock { state in
            state.cancelled = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(throwing: CancellationError())
    }
}
