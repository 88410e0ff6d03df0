import BuiltinPlugins
import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

/// A `watch` run in-process on a ``SteppedClock`` against the simulator.
///
/// Every wait of the watcher is a step of the test: it waits until the watcher waits, reads what
/// it printed, and moves the clock. No interval passes in real time, so the schedule is tested to
/// the second on any machine, however busy.
final class ClockedWatcher: Sendable {
    let clock = SteppedClock()
    let console = RecordingConsole()
    let control = CommandControl()
    let rules: String
    private let task: Task<Int32, Never>

    /// A watcher of `rules` on `simulator`, polling every 30 s of its clock, a full pass every
    /// 15 minutes, at `rateLimit` requests a minute (writes at a tenth of it, as gitbay's budgets),
    /// with `extra` arguments.
    init(
        _ simulator: SimulatorProcess, rules: String, rateLimit: Int = 6000, state: BotState = BotState(),
        _ extra: [String] = []
    ) {
        self.rules = rules
        let arguments =
            [
                "watch", rules, "--state-dir", state.folder, "--interval", "30s", "--full-every", "15m", "--url",
                simulator.baseURL.absoluteString, "--rate-limit", "\(rateLimit)", "--format", "json",
            ] + extra
        let environment = testEnvironment(["GITBAY_TOKEN": simulator.token])
        let (clock, console, control) = (clock, console, control)
        task = Task {
            await BotCLI.run(
                arguments, environment: environment, console: console, registry: BuiltinPlugins.registry,
                control: control, clock: clock)
        }
    }

    /// The instant the watcher waits for next, once it waits; fails the test when it never does.
    func nextWait() async throws -> Duration {
        try #require(try await clock.nextWait(), "the watcher never waited: \(console.error)")
    }

    /// Each pass's kind, in order.
    var passes: [String] {
        lines.compactMap { $0["pass"] as? String }
    }

    /// Each pass's JSON line, in order.
    var lines: [[String: Any]] {
        console.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Stops the watcher as a signal would, and answers its exit code.
    func stop() async -> Int32 {
        task.cancel()
        return await task.value
    }
}
