import Timekeeping

/// Feeds systemd's watchdog while the watcher moves, and starves it once the watcher is stuck.
///
/// It sends `WATCHDOG=1` at half the interval systemd asked for, but only while
/// ``WatchHealth/isProgressing(_:now:)`` holds. So a watcher whose request never returns (or whose
/// threads are all blocked, which stops this task too) is restarted by systemd, while one that
/// waits out a server that is down is left to wait. It waits on the watcher's clock, so a test
/// moves its time as it moves the watcher's.
public struct Watchdog {
    private let task: Task<Void, Never>

    /// Starts feeding `notifier`'s watchdog from `telemetry`, on `clock`; `nil` when systemd
    /// watches nothing.
    public init?(notifier: any ServiceNotifier, telemetry: WatchTelemetry, clock: any MonotonicClock) {
        guard let interval = notifier.watchdogInterval else { return nil }
        task = Task {
            while !Task.isCancelled {
                if WatchHealth.isProgressing(telemetry.status, now: telemetry.now) {
                    notifier.notify(["WATCHDOG=1"])
                }
                do {
                    try await clock.sleep(until: clock.now + interval / 2)
                } catch {
                    return
                }
            }
        }
    }

    public func stop() {
        task.cancel()
    }
}
