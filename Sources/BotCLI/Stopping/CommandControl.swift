import GitbayClient
import Synchronization

/// How whoever runs a command tells it to stop or reload: the entry point on a signal, a test or
/// a benchmark directly.
///
/// A stop is the cancellation of the command's task; this only records why, so the command exits
/// with 128 + the signal's number as shells and systemd expect. Each command run has its own, so
/// two runs in one process (tests, an embedding program) never see each other's stops.
///
/// It is also its clients' ``WriteAdmission``: a write goes out only while no stop is recorded,
/// and the control counts those on their way, so a stop can say whether one is in flight.
public final class CommandControl: Sendable {
    private struct State {
        var stopSignal: Int32?
        var acceptsReloads = false
        var reloadPending = false
        var writesInFlight = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records that `signal` asks the command to stop; the caller then cancels the command's task.
    ///
    /// The first stop's signal is the one kept. From now on no write is admitted; answers whether
    /// one was on its way at this moment (it runs to its end and is recorded).
    @discardableResult
    public func recordStop(by signal: Int32) -> Bool {
        state.withLock { state in
            if state.stopSignal == nil { state.stopSignal = signal }
            return state.writesInFlight > 0
        }
    }

    /// What a stop does, as the note that it was taken says it: `writeInFlight` is what
    /// ``recordStop(by:)`` answered.
    public static func stopNote(writeInFlight: Bool) -> String {
        writeInFlight ? "stopping after the write in flight" : "stopping: nothing in flight"
    }

    /// Whether a write of the command is on its way now.
    var hasWriteInFlight: Bool {
        state.withLock { $0.writesInFlight > 0 }
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

extension CommandControl: WriteAdmission {
    /// Admits a write while no stop is recorded, counting it as in flight until ``writeEnded()``.
    public func admitWrite() -> Bool {
        state.withLock { state in
            guard state.stopSignal == nil else { return false }
            state.writesInFlight += 1
            return true
        }
    }

    /// Counts an admitted write's exchange as over, answered or not.
    public func writeEnded() {
        state.withLock { $0.writesInFlight -= 1 }
    }
}
