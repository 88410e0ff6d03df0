import BotCLI
import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

extension FaultDrill {
    /// Fault drills: the bot fed garbage, refused halfway or flooded with items.
    @Suite struct Faults {
        @Test(arguments: [
            "malformed,method=GET,times=1", "truncated,method=GET,times=1", "truncated,honest=1,method=GET,times=1",
            "huge,method=GET,times=1", "hold,method=GET,times=1",
        ])
        func aBadAnswerToAReadIsRetriedAndTheRunFinishes(fault: String) async throws {
            // A huge answer (20 MiB of valid, padded JSON) is accepted: the client has no size cap of
            // its own, and its 30 s deadline bounds how long any answer can take.
            try await SimulatorProcess.run(stateFile: demo, options: fastSimulator + ["--fault", fault]) { simulator in
                let state = BotState()
                let first = try await runFirst(simulator, state: state, fault: fault)
                #expect(first.code == 0, "\(first.output)\(first.error)")
                let writes = try applied(simulator)
                #expect(writes.count == demoWrites && writes.values.allSatisfy { $0 == 1 }, "\(writes)")
                try await finishesExactlyOnce(simulator, state: state)
            }
        }

        @Test func readsThatStayGarbageStopTheRunBeforeAnyWrite() async throws {
            let options = fastSimulator + ["--fault", "malformed,method=GET"]
            try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
                let state = BotState()
                let first = await bot(simulator, ["run", rules, "--state-dir", state.folder])
                #expect(first.code == 1, "\(first.output)\(first.error)")
                #expect(first.error.contains("the server's answer is not a gitbay reply"), "\(first.error)")
                #expect(try simulator.journalEntries().isEmpty)
                try await finishesExactlyOnce(simulator, state: state)
            }
        }

        @Test(arguments: [
            "malformed,method=POST,times=2", "truncated,method=POST,times=2", "truncated,honest=1,method=POST,times=2",
            "huge,method=POST,times=2", "hold,method=POST,times=1",
        ])
        func aBadAnswerToAWriteNeverDoublesIt(fault: String) async throws {
            try await SimulatorProcess.run(stateFile: demo, options: fastSimulator + ["--fault", fault]) { simulator in
                let state = BotState()
                let first = try await runFirst(simulator, state: state, fault: fault)
                #expect(first.code == 0 || first.code == 3, "\(first.output)\(first.error)")
                #expect(try applied(simulator).values.allSatisfy { $0 == 1 })
                try await finishesExactlyOnce(simulator, state: state)
            }
        }

        @Test func aTokenRevokedHalfwayStopsTheRunWithoutShowingTheToken() async throws {
            let options = fastSimulator + ["--fault", "401,after=3,method=POST"]
            try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
                let state = BotState()
                let first = await bot(simulator, ["run", rules, "--state-dir", state.folder])
                #expect(first.code == 1, "\(first.output)\(first.error)")
                #expect(first.error.contains("token"), "\(first.error)")
                #expect(!(first.output + first.error).contains(simulator.token))
                let writes = try applied(simulator)
                #expect(writes.values.reduce(0, +) == 3, "\(writes)")
                #expect(writes.values.allSatisfy { $0 == 1 })
                try await finishesExactlyOnce(simulator, state: state)
            }
        }

        @Test func aServerTurningReadOnlyHalfwayFailsTheRestAndTheNextRunFinishes() async throws {
            // Three writes land; the switch comes while the fourth is held in flight.
            let options = fastSimulator + ["--fault", "hold,method=POST,after=3"]
            try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
                let state = BotState()
                async let first = bot(simulator, ["run", rules, "--state-dir", state.folder])
                let reached = try await holding(1, simulator)
                try await simulator.control(#"{"read_only":true,"faults":[],"release":1}"#)
                let result = await first
                #expect(reached)
                #expect(try applied(simulator).values.reduce(0, +) == 3)
                #expect(result.code == 3, "\(result.output)\(result.error)")
                let failed = try await state.commands(server: simulator.baseURL, outcome: "failed")
                #expect(!failed.isEmpty)
                #expect(result.output.contains("failed"), "\(result.output)")
                let refused = try simulator.journalEntries().filter { $0["applied"] as? Bool == false }
                #expect(refused.count == failed.count)
                try await finishesExactlyOnce(simulator, state: state)
            }
        }

        @Test func tenThousandIdleIssuesTripTheGuards() async throws {
            let forge = try idleForge(issues: 10_000)
            defer { try? FileManager.default.removeItem(at: forge) }
            let offline = ["plan", rules, "--snapshot", forge.path, "--max-actions", "50"]

            let held = await runBot(offline + ["--detailed-exitcode"])
            #expect(held.code == 0, "\(held.error)")
            #expect(held.output.contains("tripwire: rule 'mark-stale' would act on 10000 of 10000 issues"))
            #expect(held.output.hasSuffix("0 commands pending (0 rules, 0 entries), 20000 held back\n"))

            let forced = await runBot(offline + ["--force", "--detailed-exitcode"])
            #expect(forced.code == 2, "\(forced.error)")
            #expect(forced.output.contains("--max-actions 50 reached: 19950 more commands left for the next run"))
            #expect(forced.output.hasSuffix("50 commands pending (1 rule, 25 entries), 19950 held back\n"))

            let plain = await runBot(offline + ["--force"])
            #expect(plain.code == 0)
        }
    }
}
