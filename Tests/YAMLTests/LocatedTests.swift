import Testing
import YAML

@Suite("Located values and positions inside scalars")
struct LocatedTests {
    /// A rule whose fields keep their locations for later semantic checks.
    struct Rule: Decodable {
        var name: Located<String>
        var days: Located<Int>
        var labels: [Located<String>]
        var pattern: Located<String>?
    }

    @Test("Located carries the value and where it was written")
    func locatedFields() throws {
        let rule = try decode(Rule.self, "name: stale\ndays:   30\nlabels: [bug, 'needs info']\n")
        #expect(rule.name == Located("stale", at: at(1, 7)))
        #expect(rule.days.value == 30)
        #expect(rule.days.location == at(2, 9))
        #expect(rule.labels.map(\.location) == [at(3, 10), at(3, 15)])
        #expect(rule.pattern == nil)
    }

    @Test("Located reports the wrapped value's errors at its node")
    func locatedErrors() {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Rule.self, "name: a\ndays: soon\nlabels: []\n") }
                == "t.yml:2:7: error: expected an integer, found 'soon'"
        )
    }

    @Test(
        "offsets inside plain, single-quoted and double-quoted scalars map through quotes and escapes",
        arguments: [
            ("pattern: a(b", 1, 11), ("pattern: 'it''s (x'", 5, 17), ("pattern: \"a\\tb(c\"", 3, 15),
            ("pattern: \"\\u00e9\\x41(\"", 2, 21), ("pattern: \"é(\"", 1, 12), ("pattern: abc", 99, 13),
        ]
    )
    func scalarOffsets(line: String, offset: Int, column: Int) throws {
        let rule = try decode(Rule.self, "name: n\ndays: 1\nlabels: []\n\(line)\n")
        let pattern = try #require(rule.pattern)
        #expect(pattern.location(ofScalarOffset: offset) == at(4, column))
    }

    @Test("scalars spanning lines fall back to their start")
    func multiLineScalars() throws {
        let rule = try decode(Rule.self, "name: n\ndays: 1\nlabels: []\npattern: |\n  a(b\n")
        #expect(try #require(rule.pattern).location(ofScalarOffset: 1) == at(4, 10))
    }

    @Test("Node locates a String.Index inside its scalar")
    func nodeIndex() throws {
        let node = try compose("k: 'abc(d'\n")
        guard case .mapping(let pairs) = node.content, let text = pairs[0].value.scalar,
            let paren = text.firstIndex(of: "(")
        else {
            Issue.record("expected a scalar value")
            return
        }
        #expect(pairs[0].value.location(of: paren) == at(1, 8))
    }
}
