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

    static let source = """
        # gitbay-bot rules
        version: 1
        x-defaults: &defaults
          days: 30
          labels: [stale, "needs info"]
        rules:
          - name: stale issues
            <<: *defaults
            when: {kind: issues, idle: 30d, label: {none: [pinned, security]}}
            comment: |
              This issue has been idle for a while.
              It will be closed in 7 days.
          - name: 'close stale'
            when:
              kind: issues
              label: {all: [stale]}
            close: true
            days: 0x10
          - name: "ready stacks \\u00e9"
            when: {kind: merge_requests, stack.landed: true}
            labels: &l [ready]
          - {name: flow, when: {kind: builds}, labels: *l}

        """

    @Test("thousands of mutations never crash, hang or produce an unlocated error")
    func mutations() throws {
        let original = Array(Self.source.utf8)
        _ = try YAMLDecoder().decode(RuleFile.self, from: original, file: testFile)
        let lineCount = Self.source.split(separator: "\n", omittingEmptySubsequences: false).count
        var random = SeededGenerator(seed: 0x6769_7462_6179)
        let inserts: [[UInt8]] = [[0x5B], [0x2A], [0x26], [0x09], Array("&a ".utf8), Array("*a".utf8), [0x00], [0xFF]]
        var failures = 0
        var successes = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                case 1:
                    bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
                case 2:
                    let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                case 3: bytes.insert(contentsOf: inserts.randomElement(using: &random) ?? [], at: position)
                default:
                    bytes.insert(
                        contentsOf: repeatElement(0x5B, count: Int.random(in: 1...400, using: &random)), at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
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
        #expect(clock.now - start < .seconds(10))
    }
}
