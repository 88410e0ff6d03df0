import Synchronization

/// How whoever runs a command tells it to stop or reload: the entry point on a signal, a test or
/// a benchmark directly.
///
/// A stop is the cancellation of the command's task; this only records why, so the command exits
/// with 128 + the signal's number as shells and systemd expect. Each command run has its own, so
/// two runs in one process (tests, an embedding program) never see each other's stops.
public final class CommandControl: Sendable {
    private struct State {
        var stopSignal: Int32?
        var acceptsReloads = false
        var reloadPending = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Records that `signal` asks the command to stop; the caller then cancels the command's task.
    ///
    /// The first stop's signal is the one kept.
    public func recordStop(by signal: Int32) {
        state.withLock { state in
            if state.stopSignal == nil { state.stopSignal = signal }
        }
    }

    /// The signal that asked the command to stop, `nil` for a plain cancellation.
    public var stopSignal: Int32? {
        state.withLock(\.stopSignal)
    }

    /// The exit code of a command stopped by cancellation: 128 + the signal that asked for it,
    /// 130 for a plain cancellation.
    var stoppedCode: BotExitCode {
        .stopped(by: stopSignal)
    }

    /// Asks for a reload of the rules; `false` when the command does not reload (only `watch`
    /// does), and the caller treats the request as a stop.
    public func requestReload() -> Bool {
        state.withLock { state in
            guard state.acceptsReloads else { return false }
            state.reloadPending = true
            return true
        }
    }

    /// Says that the command reloads its rules when asked, from now on.
    func acceptReloads() {
        state.withLock { $0.acceptsReloads = true }
    }

    /// Whether a reload was asked for since the last call; asking clears it.
    func takeReload() -> Bool {
        state.withLock { state in
            defer { state.reloadPending = false }
            return state.reloadPending
        }
    }
}
