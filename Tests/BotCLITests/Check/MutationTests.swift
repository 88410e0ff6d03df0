import BotCLI
import BuiltinPlugins
import Foundation
import GitbayTestSupport
import RuleEngine
import Testing
import YAML

private let root = SimulatorProcess.repositoryRoot

/// Thousands of seeded random edits of the shipped rules, checked in-process: the checker must
/// never crash or hang, and must place every diagnostic inside the file it reports on.
@Suite struct MutationTests {
    static let mutants = 3_000

    /// How long they take is `gitbay-bench hostile`'s "rule-file mutations" row.
    @Test func mutatedRuleFilesAreCheckedWithinTheFile() throws {
        let originals = try RuleSet.files(at: [root.appendingPathComponent("rules").path])
        try #require(originals.count == 4)
        var problems: [String] = []
        var broken = 0
        let mutants = RuleMutation.mutants(of: originals.map(\.bytes), count: Self.mutants, seed: 0x6769_7462_6179)
        for (index, bytes) in mutants.enumerated() {
            let path = "mutant-\(index).yml"
            let ruleSet = RuleSet.load(files: [(path, bytes)], registry: BuiltinPlugins.registry)
            if ruleSet.hasErrors { broken += 1 }
            let lines = Self.lines(of: bytes)
            for diagnostic in ruleSet.diagnostics.flatMap({ [$0] + $0.notes }) {
                let location = diagnostic.location
                let length = location.line <= lines.count ? lines[location.line - 1] : 0
                if location.file != path || location.line < 1 || location.line > lines.count
                    || location.column < 1 || location.column > length + 1
                {
                    problems.append("\(diagnostic) (\(lines.count) lines)")
                }
            }
            for diagnostic in ruleSet.diagnostics {
                _ = diagnostic.rendered(sources: ruleSet.sources)
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        #expect(broken > Self.mutants / 3, "the mutations should break most files")
    }

    @Test func theCommandLineExitsZeroOrSeventyEightOnMutants() async throws {
        let originals = try RuleSet.files(at: [root.appendingPathComponent("rules").path])
        let folder = Scratch.url(
            "gitbay-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SeededGenerator(seed: 78)
        var codes: [Int32: Int] = [:]
        for index in 0..<150 {
            var bytes = originals[index % originals.count].bytes
            bytes = RuleMutation.apply(to: bytes, using: &generator)
            let file = folder.appendingPathComponent("mutant-\(index).yml")
            try Data(bytes).write(to: file)
            let result = await runBot(["check", file.path])
            codes[result.code, default: 0] += 1
            // Passing files print warnings at most (a mutant may drop a rule's comment, which
            // `ready` relies on); failing ones print nothing on standard output.
            #expect(result.code == 0 ? !result.error.contains(": error: ") : result.output.isEmpty)
        }
        #expect(Set(codes.keys).isSubset(of: [0, 78]), "\(codes)")
        #expect(codes[78, default: 0] > 0)
    }

    /// The length in Unicode scalars of each line, broken where libyaml breaks lines (LF, CR LF,
    /// CR, NEL, LS, PS); the last entry is the text after the final break, possibly empty.
    private static func lines(of bytes: [UInt8]) -> [Int] {
        var lengths = [0]
        var previous: Unicode.Scalar = "\0"
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            defer { previous = scalar }
            switch scalar {
            case "\n" where previous == "\r":
                continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                lengths.append(0)
            default:
                lengths[lengths.count - 1] += 1
            }
        }
        return lengths
    }
}
