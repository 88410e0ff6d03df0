import ArgumentParsing
import BotCLI
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import RuleEngine
import Synchronization
import Watch

/// `gitbay-bench soak`: `gitbay-bot watch` for a simulated day, with faults and other people.
///
/// The real command runs in this process (applying, with its state database) against the
/// simulator at a time scale that makes a day of its clock pass in `--seconds`, while
/// ``ForgeActivity`` acts every second and the simulator injects 503s, 429s, connection resets
/// and writes whose answer is lost after they applied. Checked: resident memory after warm-up
/// stays within 10% of where it settled; no write the bot sent is a repeat of its previous write
/// to the same item with nothing else written to that item between; and once people stop and a
/// full pass has run, a cold full read (`--read-all --no-cache`) finds nothing left to do.
enum SoakBenchmark {
    static let summary =
        "watch for a simulated day with faults and activity: flat memory, no doubled write, nothing left"

    static func run(_ arguments: [String]) async throws {
        var seconds = 180.0
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--seconds": seconds = Double(words.popFirst() ?? "") ?? seconds
            default:
                print("usage: gitbay-bench soak [--seconds 180]")
                return
            }
        }
        BenchRow.report(try await measure(seconds: seconds))
    }

    /// Discards what the watcher prints but counts its passes.
    private final class Quiet: Console {
        let passes = Mutex(0)
        func write(_ text: String, to stream: StandardStream) {
            if stream == .output { passes.withLock { $0 += text.split(separator: "\n").count } }
        }
        func isTerminal(_ stream: StandardStream) -> Bool { false }
    }

    /// This process's resident memory in MiB.
    private static func residentMiB() -> Double {
        Double(ResidentMemory.bytes() ?? 0) / 1_048_576
    }

    private static func measure(seconds: Double) async throws -> [BenchRow] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-soak-\(UUID()).json")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-soak-\(UUID())")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: state)
        }
        try await ForgeGenerator.write(to: file, repos: 2, issues: 40, mergeRequests: 12, builds: 16, seed: 9)
        let timeScale = 86_400 / seconds
        let options =
            ["--clock", "running", "--time-scale", "\(timeScale)", "--api-rate", "1000000", "--write-rate", "1000000"]
            + ForgeActivity.simulatorOptions
        var activity = try ForgeActivity(stateFile: file, seed: 9)
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            let quiet = Quiet()
            let arguments = [
                "watch", ShippedRules.folder.path, "--scope", "repo:*", "--interval", "1s", "--full-every", "15s",
                "--state-dir", state.path, "--url", simulator.baseURL.absoluteString, "--rate-limit", "1000000",
                "--max-actions", "200",
            ]
            let control = CommandControl()
            let watcher = Task {
                await BotCLI.run(
                    arguments, environment: ["GITBAY_TOKEN": simulator.token, "HOME": state.path], console: quiet,
                    control: control)
            }
            try await simulator.control(
                "{\"faults\": [\"503,rate=0.03\", \"429,rate=0.02,retry_after=1\", \"reset,rate=0.02\", "
                    + "\"reset-after,rate=0.03,method=POST\"]}")
            var memory: [Double] = []
            let start = Date()
            while Date().timeIntervalSince(start) < seconds {
                _ = try await activity.act(3, on: simulator)
                if Int(Date().timeIntervalSince(start)) % 5 == 0 { memory.append(residentMiB()) }
                try await Task.sleep(for: .seconds(1))
            }
            // People stop and the faults with them; a full pass then catches up on everything.
            try await simulator.control("{\"faults\": []}")
            try await Task.sleep(for: .seconds(20))
            // As systemd would stop it: the entry point records SIGTERM and cancels the command.
            control.recordStop(by: SIGTERM)
            watcher.cancel()
            let code = await watcher.value
            let doubled = try doubledWrites(simulator)
            let left = try await leftToDo(simulator, file: file)
            let settled = memory.dropFirst(memory.count * 3 / 10)
            let drift = (settled.max() ?? 0) / max(1, settled.first ?? 1)
            let size = "simulated day in \(Int(seconds)) s, \(quiet.passes.withLock { $0 }) passes, exit \(code)"
            return [
                BenchRow(
                    name: "soak", size: size, measure: "resident memory after warm-up, highest / first",
                    value: String(format: "%.3f (%.0f → %.0f MiB)", drift, settled.first ?? 0, settled.max() ?? 0),
                    target: "≤ 1.10", verdict: drift <= 1.10 ? "PASS" : "FAIL"),
                BenchRow(
                    name: "soak", size: size, measure: "bot writes repeating its last write to the item",
                    value: doubled.isEmpty ? "0" : "\(doubled.count): \(doubled.prefix(3))", target: "0",
                    verdict: doubled.isEmpty ? "PASS" : "FAIL"),
                BenchRow(
                    name: "soak", size: size, measure: "commands a cold --read-all --no-cache run plans after",
                    value: "\(left)", target: "0", verdict: left == 0 && code == 143 ? "PASS" : "FAIL"),
            ]
        }
    }

    /// The bot's writes that repeat its previous write to the same item (argv and stdin) with no
    /// write by anyone to that item between: a comment posted twice, a label added twice.
    private static func doubledWrites(_ simulator: SimulatorProcess) throws -> [String] {
        var last: [String: (user: String, write: String)] = [:]
        var doubled: [String] = []
        for entry in try simulator.journalEntries() where entry["applied"] as? Bool == true {
            let argv = (entry["argv"] as? [String]) ?? []
            guard argv.count >= 4 else { continue }
            let item = argv[0] + " " + argv[2] + " " + argv[3]
            let write = argv.joined(separator: " ") + "\n" + ((entry["stdin"] as? String) ?? "")
            let user = (entry["user"] as? String) ?? ""
            if user == "triage-bot", let previous = last[item], previous.user == user, previous.write == write {
                doubled.append(argv.joined(separator: " "))
            }
            last[item] = (user, write)
        }
        return doubled
    }

    /// The commands a cold full read of the forge as it ended would send.
    private static func leftToDo(_ simulator: SimulatorProcess, file: URL) async throws -> Int {
        let rules = try ShippedRules.load(scope: try RuleScope(parsing: "repo:*"))
        let options = EvaluationOptions(maxActions: 200)
        let (state, _) = try await ReadPlanner(registry: BuiltinPlugins.registry).read(
            rules, from: try simulator.client(), at: Date(), policy: ReadPolicy(.audit))
        return Evaluator(registry: BuiltinPlugins.registry, options: options).plan(
            rules: rules, state: state, source: "soak"
        ).pendingCommandCount
    }
}
