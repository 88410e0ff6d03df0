import RuleEngine
import Synchronization

/// Sends a watcher's ``WriteQueue`` while its passes go on: the one task that writes.
///
/// The passes hand entries over with ``hand(_:activity:lane:judged:)`` and read on; ``run(send:waitable:pause:)``
/// sends one job at a time, in the queue's order, through the caller's `send` (the session's
/// applier, which re-reads the item and journals every write), so the journal sees the writes in
/// the order they go out, never two at once. Cancelling the task that runs it stops it after the
/// write in flight, as the applier does; jobs not begun are dropped, and the next watcher's first
/// pass, a full one, judges their items again.
public final class WriteDrain<Failure: Error>: Sendable {
    private let queue = Mutex(WriteQueue())
    /// Why the drain stopped for good (a token turned away, a journal that cannot be written).
    private let stopped = Mutex<Failure?>(nil)
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    public init() {
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes a pass's plan (see ``WriteQueue/hand(_:activity:lane:judged:)``) and wakes the drain.
    public func hand(_ plan: Plan, activity: ActivityHistory?, lane: WriteQueue.Lane, judged: (PlanEntry) -> Bool) {
        queue.withLock { $0.hand(plan, activity: activity, lane: lane, judged: judged) }
        wake.yield()
    }

    /// What the jobs sent since the last call came to.
    public func takeFinished() -> [ApplyOutcome] {
        queue.withLock { $0.takeFinished() }
    }

    /// The commands waiting or being sent.
    public var commands: Int {
        queue.withLock { $0.commands }
    }

    /// The failure that stopped the drain, which ends the watcher.
    public var failure: Failure? {
        stopped.withLock { $0 }
    }

    /// Sends jobs as they come until the task is cancelled or a failure that waiting cannot mend.
    ///
    /// A failure `waitable` calls one that waiting can mend (a server out of reach) puts the job
    /// back first and waits `pause(failures in a row, the failure)`, which answers `false` when
    /// cancelled; any other stops the drain with it.
    public func run(
        send: @Sendable (WriteQueue.Job) async throws(Failure) -> ApplyReport,
        waitable: @Sendable (Failure) -> Bool,
        pause: @Sendable (Int, Failure) async -> Bool
    ) async {
        var failures = 0
        for await _ in wakes {
            while !Task.isCancelled, let job = queue.withLock({ $0.next() }) {
                do throws(Failure) {
                    let report = try await send(job)
                    queue.withLock { $0.sent(report) }
                    failures = 0
                } catch  where waitable(error) && !Task.isCancelled {
                    queue.withLock { $0.putBack() }
                    failures += 1
                    guard await pause(failures, error) else { return }
                } catch {
                    queue.withLock { $0.putBack() }
                    if !Task.isCancelled { stopped.withLock { $0 = error } }
                    return
                }
            }
        }
    }
}
