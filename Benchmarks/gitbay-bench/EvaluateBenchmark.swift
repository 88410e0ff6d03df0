import Foundation
import RuleEngine

/// `gitbay-bench evaluate`: ``Evaluator/plan(rules:state:source:)`` timed over 50 rule variants
/// on in-memory forges of growing size, to show evaluation stays linear in the number of items.
///
/// `--rules DIR` varies the rules of another folder instead of the shipped ones and `--repeat K`
/// prints every run, so two builds can be compared on the same rules (`Scripts/bench-compare.sh`).
enum EvaluateBenchmark {
    static let summary = "50 rule variants evaluated over 10k-100k in-memory items: items/s, linearity"
    /// 100k items must evaluate within this many seconds.
    static let target = 1.0
    static let usage =
        "usage: gitbay-bench evaluate [--items 10000,25000,50000,100000] [--rules DIR] [--repeat K]"

    static func run(_ arguments: [String]) async throws {
        var sizes = [10_000, 25_000, 50_000, 100_000]
        var folder = ShippedRules.folder
        var repeats: Int?
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--items": sizes = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rules" where !(words.first ?? "").isEmpty:
                folder = URL(fileURLWithPath: words.removeFirst(), isDirectory: true)
            case "--repeat" where (words.first.flatMap { Int($0) } ?? 0) > 0:
                repeats = Int(words.removeFirst())
            default:
                print(usage)
                return
            }
        }
        BenchRow.report(try measure(sizes: sizes, rules: folder, repeats: repeats))
    }

    /// The rows for `sizes`; each size is run `repeats` times, each run printed, or a fixed few
    /// times (three up to 25k items, two above) with only the best reported.
    static func measure(sizes: [Int], rules folder: URL, repeats: Int?) throws -> [BenchRow] {
        let rules = Array(try RuleVariants.load(RuleVariants.files(rules: 50, from: folder)).prefix(50))
        let evaluator = Evaluator(registry: ShippedRules.registry)
        _ = evaluator.plan(rules: rules, state: try SyntheticForge.state(items: 1000), source: "warm-up")
        var rows: [BenchRow] = []
        var perItem: [Double] = []
        for size in sizes {
            let state = try SyntheticForge.state(items: size)
            let runs = repeats ?? (size <= 25_000 ? 3 : 2)
            var best = Double.infinity
            var bestCPU = Double.infinity
            var entries = 0
            for run in 1...runs {
                let cpu = ProcessCPU.now().seconds
                let (plan, seconds) = BenchClock.time { evaluator.plan(rules: rules, state: state, source: "bench") }
                let used = ProcessCPU.now().seconds - cpu
                bestCPU = min(bestCPU, used)
                best = min(best, seconds)
                entries = plan.entries.count
                if repeats != nil {
                    print(
                        String(
                            format: "evaluate %dk items run %d: %.3f s (CPU %.3f s), %d entries", size / 1000, run,
                            seconds, used, entries))
                }
            }
            perItem.append(best / Double(size))
            let microseconds = best / Double(size) * 1e6
            let within = size < 100_000 || best <= target * Double(size) / 100_000
            rows.append(
                BenchRow(
                    name: "evaluate", size: "\(rules.count) rules, \(size / 1000)k items",
                    measure: "Evaluator.plan wall (best of \(runs))",
                    value: String(
                        format: "%.3f s (CPU %.3f s), %.0f items/s, %.2f µs/item, %d entries", best, bestCPU,
                        Double(size) / best, microseconds, entries),
                    target: "100k items < \(target) s",
                    verdict: within ? "PASS" : "FAIL"))
        }
        if let first = perItem.first, let last = perItem.last, perItem.count > 1 {
            let growth = last / first
            rows.append(
                BenchRow(
                    name: "evaluate", size: "\(sizes.first! / 1000)k → \(sizes.last! / 1000)k items",
                    measure: "time per item, largest / smallest", value: String(format: "%.2f", growth),
                    target: "≤ 1.5 (linear)", verdict: growth <= 1.5 ? "PASS" : "FAIL"))
        }
        return rows
    }
}
