import ArgumentParsing
import BuiltinPlugins
import Foundation
import GitbayTestSupport
import RuleEngine
import Testing
import Timekeeping

@testable import BotCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port that shows nothing: the test looks at the lock, not the plan.
private struct SilentPort: PlanPort {
    func show(_ plan: Plan, session: BotSession?) {}
}

/// A command lets go of the state database's lock when its work is done, not when the last
/// reference to its session happens to go.
///
/// The store's files close when it is dropped, at no known moment (its queue can hold it after
/// its caller resumed), and the command keeps its session for the report: a second run in the
/// same process (`watch`, the tests, a library user) met the lock still held and stopped with 75.
@Suite struct SessionLockTests {
    @Test func aRunLetsGoOfTheLockWhileItsSessionIsStillHeld() async throws {
        try await SimulatorProcess.run(
            stateFile: SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json")
        ) {
            simulator in
            let folder = Scratch.url("session-lock-\(UUID().uuidString)").path
            let arguments = [
                "run", SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path, "--state-dir", folder,
                "--url", simulator.baseURL.absoluteString, "--now", "2026-11-29T12:00:00Z", "--rate-limit", "6000",
            ]
            guard
                case .run(let invocation) = CommandParser.parse(
                    arguments, root: BotCommandTable.root, width: 80, shell: nil)
            else {
                Issue.record("\(arguments) did not parse")
                return
            }
            let context = CommandContext(
                environment: testEnvironment(["GITBAY_TOKEN": simulator.token]), console: RecordingConsole(),
                registry: BuiltinPlugins.registry, control: CommandControl(), clock: SystemClock())
            let evaluation = try await BotSession.evaluate(
                try PlanningRun(invocation, context: context), applying: "run", port: SilentPort())
            #expect(evaluation.applied != nil)
            let locks = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".lock") }
            #expect(locks.count == 1)
            for lock in locks {
                let descriptor = open(folder + "/" + lock, O_RDWR | O_CLOEXEC)
                defer { close(descriptor) }
                #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0, "the run's session still holds \(lock)")
            }
            withExtendedLifetime(evaluation) {}
        }
    }
}
