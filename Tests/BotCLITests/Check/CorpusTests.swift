import Foundation
import Testing

/// The rule-file corpus: every broken file's diagnostics pinned whole, every valid file accepted.
///
/// Each `Corpus/invalid/NAME.yml` (or folder `NAME/`, for mistakes that span files) sits next to
/// `NAME.expected`, the exact standard error of `gitbay-bot check NAME` run from that folder: the
/// headers, the source lines and the carets. Pinning the caret line makes every column reviewable
/// by eye in the expected file itself.
@Suite struct CorpusTests {
    /// The copied `Corpus` resource folder.
    static let corpus = Bundle.module.url(forResource: "Corpus", withExtension: nil)

    /// The entries of one corpus folder that are rule files or folders, sorted.
    static func entries(_ folder: String) -> [String] {
        guard let directory = corpus?.appendingPathComponent(folder) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasSuffix(".expected") }.sorted()
    }

    @Test func theCorpusHoldsAtLeastSixtyBrokenFilesAndSomeValidOnes() {
        #expect(Self.entries("invalid").count >= 60)
        #expect(Self.entries("valid").count >= 3)
    }

    @Test(arguments: entries("invalid"))
    func aBrokenFileGetsItsPinnedDiagnostics(_ name: String) async throws {
        let directory = try #require(Self.corpus).appendingPathComponent("invalid")
        let stem = name.hasSuffix(".yml") ? String(name.dropLast(4)) : name
        let expected = try String(
            contentsOf: directory.appendingPathComponent(stem + ".expected"), encoding: .utf8)
        let result = await runBot(["check", directory.appendingPathComponent(name).path])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(result.error.replacingOccurrences(of: directory.path + "/", with: "") == expected)
    }

    @Test(arguments: entries("valid"))
    func aValidFileHasNoProblems(_ name: String) async throws {
        let path = try #require(Self.corpus).appendingPathComponent("valid").appendingPathComponent(name).path
        let result = await runBot(["check", path])
        #expect(result.code == 0)
        #expect(result.error == "")
        #expect(result.output.hasSuffix("no problems found\n"))
    }

    @Test func theValidFilesPassTogether() async throws {
        let folder = try #require(Self.corpus).appendingPathComponent("valid").path
        let result = await runBot(["check", folder])
        #expect(result.code == 0)
        #expect(result.output == "3 files, 5 rules: no problems found\n")
    }
}
