import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the applier checks between writes, so the write
/// in flight finishes, its result is recorded, and the run stops with 128 + the signal's number.
///
/// SIGTERM is what systemd sends on stop and CI on cancel, SIGHUP what a closed terminal sends:
/// each deserves the same clean stop as Ctrl-C. A second signal ends the process at once, by the
/// signal's default action, for a person who really means it. The handlers in place before
/// ``start()`` come back on ``stop()``, so the library leaves the process as it found it.
///
/// `@unchecked Sendable`: its mutable state is atomics and the saved handlers, which only
/// ``start()`` and ``stop()`` touch, and a dispatch source is safe to use from any thread.
final class StopSignals: @unchecked Sendable {
    /// The signals that stop a run cleanly.
    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The first signal received, 0 while none.
    private let received = Atomic<Int32>(0)
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [Int32: sigaction] = [:]
    /// The signals this one catches: ``caught``, or others for a test that must not race with
    /// runs applying in the same process.
    private let signals: [Int32]

    init(signals: [Int32] = StopSignals.caught) {
        self.signals = signals
    }

    /// The signal that asked the run to stop, if any.
    var signal: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    var isRaised: Bool { signal != nil }

    /// Starts catching the signals until ``stop()``.
    func start() {
        for number in signals {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            var old = sigaction()
            sigaction(number, &ignore, &old)
            previous[number] = old
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let (first, _) = received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                if !first { Self.endNow(by: number) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops catching the signals and puts back the handlers that were there before.
    ///
    /// libdispatch installs its own handler for a signal source on a thread of its own, some time
    /// after ``start()``; restoring before it did would let it install after, and keep the signal.
    /// So this waits for it first (a millisecond or two, at most half a second).
    func stop() {
        let deadline = Date().addingTimeInterval(0.5)
        while signals.contains(where: Self.isIgnored) && Date() < deadline { usleep(1_000) }
        for source in sources { source.cancel() }
        sources = []
        for (number, var old) in previous {
            sigaction(number, &old, nil)
        }
        previous = [:]
    }

    /// Whether `number` is still ignored, as ``start()`` left it before libdispatch took it over.
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        sigaction(number, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
            == unsafeBitCast(SIG_IGN, to: UInt.self)
    }

    /// Ends the process by `number`'s default action, as if nothing had caught it.
    private static func endNow(by number: Int32) {
        var fallback = sigaction()
        fallback.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(number, &fallback, nil)
        kill(getpid(), number)
    }
}
