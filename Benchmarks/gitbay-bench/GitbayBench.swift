import Foundation

/// The benchmark runner: `gitbay-bench <subcommand> [arguments]`.
///
/// Each subcommand lives in its own file and registers here by name, so benchmarks for other
/// modules can be added without touching the existing ones.
@main
enum GitbayBench {
    /// A subcommand: its one-line description and what it runs with the remaining arguments.
    struct Subcommand: Sendable {
        var summary: String
        var run: @Sendable ([String]) async throws -> Void
    }

    static let subcommands: [String: Subcommand] = [
        "transport": Subcommand(summary: TransportBenchmark.summary, run: TransportBenchmark.run),
        "client": Subcommand(summary: ClientBenchmark.summary, run: ClientBenchmark.run),
        "reads": Subcommand(summary: ReadsBenchmark.summary, run: ReadsBenchmark.run),
        "evaluate": Subcommand(summary: EvaluateBenchmark.summary, run: EvaluateBenchmark.run),
        "check": Subcommand(summary: CheckBenchmark.summary, run: CheckBenchmark.run),
        "hostile": Subcommand(summary: HostileInputBenchmark.summary, run: HostileInputBenchmark.run),
        "state": Subcommand(summary: StateBenchmark.summary, run: StateBenchmark.run),
        "incremental": Subcommand(summary: IncrementalBenchmark.summary, run: IncrementalBenchmark.run),
        "scale": Subcommand(summary: ScaleBenchmark.summary, run: ScaleBenchmark.run),
        "watch": Subcommand(summary: WatchBenchmark.summary, run: WatchBenchmark.run),
        "soak": Subcommand(summary: SoakBenchmark.summary, run: SoakBenchmark.run),
        "reaction": Subcommand(summary: ReactionBenchmark.summary, run: ReactionBenchmark.run),
        "webhook": Subcommand(summary: WebhookBenchmark.summary, run: WebhookBenchmark.run),
        "all": Subcommand(summary: AllBenchmark.summary, run: AllBenchmark.run),
    ]

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let subcommand = subcommands[name] else {
            printUsage()
            exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 64)
        }
        do {
            try await subcommand.run(Array(arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("gitbay-bench \(name): \(error)\n".utf8))
            exit(1)
        }
    }

    private static func printUsage() {
        print("usage: gitbay-bench <subcommand> [arguments]\n\nsubcommands:")
        for (name, subcommand) in subcommands.sorted(by: { $0.key < $1.key }) {
            print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(subcommand.summary)")
        }
    }
}
