import GitbayTestSupport
import Testing
import YAML

@Suite("Random mutations of a valid rules file")
struct MutationTests {
    /// The rules file the mutations start from.
    struct RuleFile: Decodable {
        var version: Int
        var rules: [Rule]
    }

    /// One rule.
    struct Rule: Decodable {
        var name: Located<String>
        var when: [String: Node]
        var labels: [String]?
        var days: Int?
        var close: Bool?
        var comment: String?
    }

    /// How long they take is `gitbay-bench hostile`'s "YAML mutations" row.
    @Test("thousands of mutations never crash, hang or produce an unlocated error")
    func mutations() throws {
        _ = try YAMLDecoder().decode(RuleFile.self, from: Array(YAMLMutation.source.utf8), file: testFile)
        let lineCount = YAMLMutation.source.split(separator: "\n", omittingEmptySubsequences: false).count
        var failures = 0
        var successes = 0
        for bytes in YAMLMutation.mutants(count: 3000, seed: 0x6769_7462_6179) {
            do {
                _ = try YAMLDecoder().decode(RuleFile.self, from: bytes, file: testFile)
                successes += 1
            } catch {
                failures += 1
                for diagnostic in error.diagnostics {
                    #expect(diagnostic.severity == .error)
                    #expect(diagnostic.location.file == testFile)
                    #expect(diagnostic.location.line >= 1 && diagnostic.location.line <= lineCount + 800)
                    #expect(diagnostic.location.column >= 1)
                    #expect(!diagnostic.message.isEmpty)
                }
            }
        }
        #expect(failures > 1000)
        #expect(successes > 10)
    }
}
