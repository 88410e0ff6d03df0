import Foundation
import GitbayTestSupport

/// `gitbay-bench all`: every benchmark that has a target, each in a child process of its own so
/// its peak memory is its own, gathered into one table.
///
/// `reads`, `evaluate`, `check`, `hostile` and `state` print their rows as `ROW` lines for the
/// parent; `client` prints its own report, from which the parent takes the ratio and the 429s drawn.
enum AllBenchmark {
    static let summary =
        "reads, evaluate, check, hostile, state and client (time scale 10) in one table with peak memory"

    static func run(_ arguments: [String]) async throws {
        if arguments.first == "--child-client" {
            try await ClientBenchmark.run(["--time-scale", "10"])
            print(BenchRow(name: "client", size: "", measure: "", value: "", target: "", verdict: "").encoded)
            return
        }
        var rows: [BenchRow] = []
        for arguments in [["reads"], ["incremental"], ["evaluate"], ["check"], ["hostile"], ["state"]] {
            let output = try await child(arguments)
            rows += output.split(separator: "\n").compactMap(BenchRow.init(encoded:))
        }
        rows.append(try await client())
        print(BenchRow.table(rows))
    }

    /// Runs this executable with `arguments`, returning what it printed; a failing child stops `all`.
    private static func child(_ arguments: [String]) async throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["GITBAY_BENCH_ROWS"] = "1"
        let benchmark = try ChildProcess(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, arguments,
            environment: environment, error: .discard)
        let ended = try await benchmark.wait(timeout: .seconds(3600))
        guard ended.status == 0 else { throw ChildFailed(arguments: arguments, output: ended.outputText) }
        return ended.outputText
    }

    /// The client benchmark's report read back into a row, with the child's peak memory.
    private static func client() async throws -> BenchRow {
        let output = try await child(["all", "--child-client"])
        func value(_ label: String) -> String {
            let line = output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
            return line.map { String($0.trimmingCharacters(in: .whitespaces).dropFirst(label.count)) }?
                .trimmingCharacters(in: .whitespaces) ?? "?"
        }
        let memory = output.split(separator: "\n").compactMap(BenchRow.init(encoded:)).first?.peakMemory ?? 0
        let verdict = value("verdict").split(separator: " ").first.map(String.init) ?? "?"
        return BenchRow(
            name: "client", size: "300 reads + 30 writes, time scale 10", measure: "wall / what the limits allow",
            value: "\(value("ratio")) (\(value("wall time")) vs \(value("limits allow")); 429s \(value("429s drawn")))",
            target: "0 429s, ≤ 1.10", verdict: verdict, peakMemory: memory)
    }

    /// A child benchmark exited with an error.
    struct ChildFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var output: String

        var description: String { "gitbay-bench \(arguments.joined(separator: " ")) failed:\n\(output)" }
    }
}
