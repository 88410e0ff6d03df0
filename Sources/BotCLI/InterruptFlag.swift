import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT into a flag the applier checks between writes, so the write in flight finishes
/// and the run stops cleanly with exit 130; a second SIGINT ends the process at once.
///
/// `@unchecked Sendable`: its only mutable state is an atomic, and a dispatch source is safe to
/// use from any thread.
final class InterruptFlag: @unchecked Sendable {
    private let raised = Atomic<Bool>(false)
    private let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())

    init() {}

    var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Starts catching SIGINT until ``stop()``.
    func start() {
        signal(SIGINT, SIG_IGN)
        source.setEventHandler { [self] in
            if raised.exchange(true, ordering: .relaxed) {
                exit(130)
            }
        }
        source.resume()
    }

    /// Stops catching SIGINT.
    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
