import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal that asked the run to stop, 0 while none: the one thing the handler touches, an
/// atomic, which is safe in a signal handler.
private let stopRequest = Atomic<Int32>(0)

/// Set by a reload signal (SIGHUP under `watch`), cleared by whoever reloads.
private let reloadRequest = Atomic<Bool>(false)

/// The handler of a reload signal: only notes it.
private func reloadSignalHandler(_ number: Int32) {
    reloadRequest.store(true, ordering: .relaxed)
}

/// The handler of every stop signal: notes the first, and ends the process at once on a second.
///
/// The second goes by the signal's default action; only async-signal-safe calls (`sigaction`, `kill`).
private func stopSignalHandler(_ number: Int32) {
    let (first, _) = stopRequest.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    guard !first else { return }
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigaction(number, &fallback, nil)
    kill(getpid(), number)
}

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the applier checks between writes, so the write
/// in flight finishes, its result is recorded, and the run stops with 128 + the signal's number.
///
/// SIGTERM is what systemd sends on stop and CI on cancel, SIGHUP what a closed terminal sends:
/// each deserves the same clean stop as Ctrl-C. A second signal ends the process at once, by the
/// signal's default action, for a person who really means it. The handlers in place before
/// ``start()`` come back on ``stop()``, so the library leaves the process as it found it.
///
/// A plain `sigaction` handler, not a dispatch signal source: creating and cancelling those as
/// runs start and stop crashed libdispatch's event loop now and then. `SA_RESTART` keeps reads and
/// writes going through a signal; libcurl's poll takes an interruption as "nothing yet".
///
/// `@unchecked Sendable`: its only mutable state, the saved handlers, is touched by ``start()``
/// and ``stop()`` alone, which one run calls in turn.
final class StopSignals: @unchecked Sendable {
    /// The signals that stop a run cleanly.
    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private var previous: [Int32: sigaction] = [:]
    /// The signals this one catches: ``caught``, or others for a test that must not race with
    /// runs applying in the same process.
    private let signals: [Int32]
    /// The signals that ask for a reload instead (SIGHUP for `watch`, which runs for days and
    /// reloads its rules as daemons do).
    private let reloadSignals: [Int32]

    init(signals: [Int32] = StopSignals.caught, reloadOn reloadSignals: [Int32] = []) {
        self.signals = signals.filter { !reloadSignals.contains($0) }
        self.reloadSignals = reloadSignals
    }

    /// Whether a reload was asked for since the last call; asking clears it.
    func takeReload() -> Bool {
        reloadRequest.exchange(false, ordering: .relaxed)
    }

    /// The signal that asked the run to stop, if any.
    var signal: Int32? {
        let number = stopRequest.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    var isRaised: Bool { signal != nil }

    /// Starts catching the signals until ``stop()``.
    func start() {
        stopRequest.store(0, ordering: .relaxed)
        reloadRequest.store(false, ordering: .relaxed)
        for number in signals + reloadSignals {
            var action = sigaction()
            if reloadSignals.contains(number) {
                action.__sigaction_handler.sa_handler = reloadSignalHandler
            } else {
                action.__sigaction_handler.sa_handler = stopSignalHandler
            }
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(number, &action, &old)
            previous[number] = old
        }
    }

    /// Stops catching the signals and puts back the handlers that were there before.
    func stop() {
        for (number, var old) in previous {
            sigaction(number, &old, nil)
        }
        previous = [:]
    }
}
