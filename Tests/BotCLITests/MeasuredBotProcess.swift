import Foundation
import GitbayTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `gitbay-bot` run as a child whose peak resident memory is measured when it ends.
///
/// Foundation's `Process` reaps its child itself, so the child's own resource usage is lost. This
/// starts the bot with `posix_spawn` and reaps it with `wait4`, whose `rusage` is the child's
/// alone, whatever else the test process runs at the same time.
struct MeasuredBotProcess {
    /// How the bot ended and what it cost.
    struct Outcome {
        /// The exit status, or nil when a signal ended the bot.
        var exitStatus: Int32?
        /// The peak resident set size, from `wait4`'s `ru_maxrss`.
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
    /// The most time the bot may take before it is stopped.
    var patience: Duration = .seconds(120)

    /// Runs the bot with `arguments` and only `environment`, and waits for it to end.
    func run(_ arguments: [String], environment: [String: String]) async throws -> Outcome {
        let name = UUID().uuidString
        let outputPath = Scratch.url("measured-\(name).out").path
        let errorPath = Scratch.url("measured-\(name).err").path
        let pid = try spawn(arguments, environment: environment, output: outputPath, error: errorPath)
        var status: Int32 = 0
        var usage = rusage()
        var stoppedByWatchdog = false
        let deadline = ContinuousClock.now.advanced(by: patience)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            guard reaped == 0 || errno == EINTR else { throw WaitError(code: errno) }
            if Self.peakResidentSoFar(pid) > limit {
                stoppedByWatchdog = true
                kill(pid, SIGKILL)
            } else if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let signalled = status & 0x7f != 0
        return Outcome(
            exitStatus: signalled ? nil : (status >> 8) & 0xff, peakResidentBytes: Self.bytes(maxrss: usage.ru_maxrss),
            stoppedByWatchdog: stoppedByWatchdog, output: Self.text(at: outputPath), error: Self.text(at: errorPath))
    }

    private func spawn(
        _ arguments: [String], environment: [String: String], output: String, error: String
    ) throws -> pid_t {
        let path = BotProcess.executable.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let variables = testEnvironment(environment).merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let envp = variables.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw SpawnError(code: result) }
        return pid
    }

    /// The child's peak resident memory so far, from `/proc` where there is one, else 0.
    private static func peakResidentSoFar(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// `ru_maxrss` in bytes: Linux counts kilobytes, macOS bytes.
    private static func bytes(maxrss: Int) -> Int {
        #if os(Linux)
        maxrss * 1024
        #else
        maxrss
        #endif
    }

    private static func text(at path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// `posix_spawn` failed.
    struct SpawnError: Error {
        var code: Int32
    }

    /// `wait4` failed.
    struct WaitError: Error {
        var code: Int32
    }
}
