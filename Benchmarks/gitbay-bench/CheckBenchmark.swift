import Foundation
import RuleEngine

/// `gitbay-bench check`: what `gitbay-bot check` spends on a large rule folder, timing
/// ``RuleSet/files(at:)`` and ``RuleSet/load(files:registry:scopeOverride:)`` on generated files.
enum CheckBenchmark {
    static let summary = "RuleSet.files + RuleSet.load on 200 generated rule files: files/s"
    /// The whole folder must check within this many seconds.
    static let target = 1.0

    static func run(_ arguments: [String]) async throws {
        var count = 200
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--files": count = Int(words.popFirst() ?? "") ?? count
            default:
                print("usage: gitbay-bench check [--files 200]")
                return
            }
        }
        BenchRow.report(try measure(files: count))
    }

    static func measure(files count: Int) throws -> [BenchRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gitbay-bench-rules-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in try RuleVariants.files(count: count) {
            try Data(file.bytes).write(to: folder.appendingPathComponent(file.path))
        }
        var timings: [Double] = []
        var rules = 0
        for _ in 0..<5 {
            let (set, seconds) = try BenchClock.time {
                RuleSet.load(files: try RuleSet.files(at: [folder.path]), registry: ShippedRules.registry)
            }
            guard !set.hasErrors else { throw ShippedRules.Failure.invalidRules(set.diagnostics.map { "\($0)" }) }
            rules = set.rules.count
            timings.append(seconds)
        }
        let median = timings.sorted()[timings.count / 2]
        return [
            BenchRow(
                name: "check", size: "\(count) files, \(rules) rules", measure: "RuleSet.files + load (median of 5)",
                value: String(
                    format: "%.3f s, %.0f files/s, %.0f rules/s", median, Double(count) / median,
                    Double(rules) / median),
                target: "< \(target) s", verdict: median < target ? "PASS" : "FAIL")
        ]
    }
}
