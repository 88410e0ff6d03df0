import Foundation
import GitbayClient
import GitbayTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `gitbay-bot` run as a child whose peak resident memory is measured when it ends.
///
/// The spawner (``ChildProcess``) reaps its child with `wait4`, whose `rusage` is the child's
/// alone, whatever else the test process runs at the same time; this adds a watchdog that stops
/// the bot as soon as its memory passes a limit.
struct MeasuredBotProcess {
    /// How the bot ended and what it cost.
    struct Outcome {
        /// The exit status, or nil when a signal ended the bot.
        var exitStatus: Int32?
        /// The peak resident set size: the highest `VmHWM` sampled while the bot ran.
        ///
        /// Not `wait4`'s `ru_maxrss`, which on Linux starts at the test process's own peak (the
        /// spawn is a vfork, and the exec records the shared memory's high-water mark): 197 MiB
        /// for a bot that peaked at 68, once the whole suite had run in the test process.
        var peakResidentBytes: Int
        /// Whether the watchdog stopped the bot for passing ``MeasuredBotProcess/limit``.
        var stoppedByWatchdog: Bool
        var output: String
        var error: String
    }

    /// The resident memory past which the watchdog stops the bot at once.
    ///
    /// A bot that reads without bound would otherwise take the machine's memory (8.4 GB in a
    /// minute once); past this limit the test has failed anyway.
    var limit: Int
    /// The most time the bot may take; past it the wait fails.
    var patience: Duration = .seconds(120)

    /// Runs the bot with `arguments` and only `environment`, and waits for it to end.
    func run(_ arguments: [String], environment: [String: String]) async throws -> Outcome {
        let child = try ChildProcess(
            BotProcess.executable.path, arguments, environment: BotProcess.environment(environment))
        var sampledPeak = 0
        let deadline = ContinuousClock.now.advanced(by: patience)
        // Sampled every 20 ms until the bot ends or passes the limit, whichever comes first.
        _ = try await eventually(within: patience.seconds, every: .milliseconds(20)) {
            sampledPeak = max(sampledPeak, Self.peakResidentSoFar(child.pid))
            return !child.isRunning || sampledPeak > limit
        }
        let stoppedByWatchdog = sampledPeak > limit
        if stoppedByWatchdog { child.send(SIGKILL) }
        let ended = try await child.wait(timeout: max(deadline - ContinuousClock.now, .seconds(5)))
        return Outcome(
            exitStatus: ended.status,
            peakResidentBytes: sampledPeak > 0
                ? sampledPeak : ended.peakResidentKilobytes * 1024,
            stoppedByWatchdog: stoppedByWatchdog, output: ended.outputText, error: ended.errorText)
    }

    /// The child's peak resident memory so far, from `/proc` where there is one, else 0.
    private static func peakResidentSoFar(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
