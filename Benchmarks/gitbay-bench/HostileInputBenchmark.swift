import Foundation
import GitbayTestSupport
import RuleEngine
import YAML

/// `gitbay-bench hostile`: what the checker spends on input built to hurt it (nesting 100,000 deep, an
/// alias bomb, thousands of randomly broken rule files), each against ordinary input of the same kind.
///
/// The unit tests (ComposerTests, GeneratedFileTests, both MutationTests) check what the checker says
/// about these inputs; how long it takes is measured here, as ratios, so that a limit that stops
/// stopping early shows up whatever the machine's speed and load.
enum HostileInputBenchmark {
    static let summary = "deep nesting, an alias bomb and 3000-file mutation runs, against ordinary input"

    static func run(_ arguments: [String]) async throws {
        guard arguments.isEmpty else {
            print("usage: gitbay-bench hostile")
            return
        }
        BenchRow.report(try measure())
    }

    static func measure() throws -> [BenchRow] {
        [deepNesting(), try deepRuleFile(), aliasBomb(), yamlMutations(), try ruleFileMutations()]
    }

    /// The three styles of a value nested `depth` deep, as the deep-nesting tests write them.
    private static func nested(depth: Int) -> [(style: String, text: String)] {
        [
            ("flow lists", String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
            ("block lists", String(repeating: "- ", count: depth) + "x"),
            ("flow mappings", String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)),
        ]
    }

    /// The median of `runs` timings of `body`, in seconds.
    private static func median(runs: Int = 15, _ body: () -> Void) -> Double {
        let timings = (0..<runs).map { _ in BenchClock.time(body).1 }.sorted()
        return timings[timings.count / 2]
    }

    /// The median over `runs` rounds of `measured`'s time over `yardstick`'s, the two timed back to
    /// back in each round, so that a busy spell of the machine weighs on both alike.
    private static func pairedRatio(runs: Int = 15, _ measured: () -> Void, to yardstick: () -> Void) -> Double {
        let ratios = (0..<runs).map { _ in BenchClock.time(measured).1 / BenchClock.time(yardstick).1 }.sorted()
        return ratios[ratios.count / 2]
    }

    /// The worst of `ratios` and each of them, for a row's value.
    private static func worst(_ ratios: [(name: String, ratio: Double)]) -> (Double, String) {
        let worst = ratios.map(\.ratio).max() ?? .infinity
        let each = ratios.map { "\($0.name) " + String(format: "%.2f", $0.ratio) }
        return (worst, String(format: "worst %.2f: ", worst) + each.joined(separator: ", "))
    }

    /// Composing 100,000 levels, in each style, against a document of the same size holding one
    /// long plain scalar, which libyaml reads to the end: stopping at level 257 must cost about what
    /// reading the bytes does, where going deep would build 100,000 nodes.
    private static func deepNesting() -> BenchRow {
        let ratios = nested(depth: 100_000).map { style, text in
            let deep = Array(text.utf8)
            let flat = Array("a: ".utf8) + Array(repeating: UInt8(ascii: "x"), count: deep.count - 3)
            let ratio = pairedRatio(
                { _ = try? YAML.compose(bytes: deep, file: "deep.yml") },
                to: { _ = try? YAML.compose(bytes: flat, file: "flat.yml") })
            return (name: style, ratio: ratio)
        }
        let (ratio, value) = worst(ratios)
        return BenchRow(
            name: "hostile", size: "100k levels, 3 styles", measure: "compose, deep / a flat file of the same size",
            value: value, target: "≤ 3", verdict: ratio <= 3 ? "PASS" : "FAIL")
    }

    /// Checking a 10,000-deep rule file, in each style, against checking the shipped rules: a
    /// hostile file must not cost an order of magnitude more than the ordinary ones.
    private static func deepRuleFile() throws -> BenchRow {
        let shipped = try ShippedRules.files()
        let ratios = nested(depth: 10_000).map { style, text in
            let rules = (style == "block lists" ? "rules:\n" : "rules: ") + text
            let deep = [("deep.yml", Array("scope: owner:krz\n\(rules)\n".utf8))]
            return (name: style, ratio: pairedRatio({ check(deep) }, to: { check(shipped) }))
        }
        let (ratio, value) = worst(ratios)
        return BenchRow(
            name: "hostile", size: "10k levels, 3 styles", measure: "load + render, deep file / the shipped rules",
            value: value, target: "≤ 10", verdict: ratio <= 10 ? "PASS" : "FAIL")
    }

    /// Nine levels of ten aliases (10⁹ nodes expanded) against a plain document of the 100,000
    /// nodes the expansion budget allows: the bomb must stop at the budget.
    private static func aliasBomb() -> BenchRow {
        let levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var bomb = "a: &a [" + Array(repeating: "lol", count: 10).joined(separator: ",") + "]\n"
        for (previous, name) in zip(levels, levels.dropFirst()) {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
        }
        let plain = Array(("a: [" + Array(repeating: "lol", count: 99_990).joined(separator: ",") + "]\n").utf8)
        let bombBytes = Array(bomb.utf8)
        let ratio = pairedRatio(
            { _ = try? YAML.compose(bytes: bombBytes, file: "bomb.yml") },
            to: { _ = try? YAML.compose(bytes: plain, file: "plain.yml") })
        return BenchRow(
            name: "hostile", size: "10⁹ nodes by alias; 100k plain", measure: "compose, bomb / plain 100k nodes",
            value: String(format: "%.3f", ratio), target: "≤ 1.5", verdict: ratio <= 1.5 ? "PASS" : "FAIL")
    }

    /// The YAML mutation test's 3000 mutants, composed and decoded, against its unmutated file.
    private static func yamlMutations() -> BenchRow {
        let mutants = YAMLMutation.mutants(count: 3000, seed: 0x6769_7462_6179)
        let original = Array(YAMLMutation.source.utf8)
        var rejected = 0
        let (_, total) = BenchClock.time {
            for bytes in mutants where (try? YAMLDecoder().decode(Node.self, from: bytes, file: "t.yml")) == nil {
                rejected += 1
            }
        }
        let ratio =
            total / Double(mutants.count)
            / median { _ = try? YAMLDecoder().decode(Node.self, from: original, file: "t.yml") }
        return BenchRow(
            name: "hostile", size: "3000 mutants, \(rejected) rejected", measure: "decode, mean mutant / original",
            value: String(format: "%.2f (%.2f s in all)", ratio, total), target: "≤ 3",
            verdict: ratio <= 3 ? "PASS" : "FAIL")
    }

    /// The rule-file mutation test's 3000 mutants of the shipped files, loaded and their
    /// diagnostics rendered, against the shipped files themselves.
    private static func ruleFileMutations() throws -> BenchRow {
        let shipped = try ShippedRules.files()
        let mutants = RuleMutation.mutants(of: shipped.map(\.bytes), count: 3000, seed: 0x6769_7462_6179)
        var broken = 0
        let (_, total) = BenchClock.time {
            for (index, bytes) in mutants.enumerated() where !check([("mutant-\(index).yml", bytes)]) {
                broken += 1
            }
        }
        let ordinary = median { check(shipped) } / Double(shipped.count)
        let ratio = total / Double(mutants.count) / ordinary
        return BenchRow(
            name: "hostile", size: "3000 mutants, \(broken) broken",
            measure: "load + render, mean mutant / shipped file",
            value: String(format: "%.2f (%.2f s in all)", ratio, total), target: "≤ 3",
            verdict: ratio <= 3 ? "PASS" : "FAIL")
    }

    /// Loads `files` and renders their diagnostics, as `gitbay-bot check` does; whether they check.
    @discardableResult
    private static func check(_ files: [(path: String, bytes: [UInt8])]) -> Bool {
        let set = RuleSet.load(files: files, registry: ShippedRules.registry)
        for diagnostic in set.diagnostics { _ = diagnostic.rendered(sources: set.sources) }
        return !set.hasErrors
    }
}
