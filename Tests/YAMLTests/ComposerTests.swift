import Testing
import YAML

@Suite("Composing events into nodes")
struct ComposerTests {
    /// The shape of the UTF-16 test file.
    private struct UTF16File: Decodable {
        var a: String
        var b: [Bool]
    }

    @Test("mappings keep source order, styles and 1-based Unicode-scalar locations")
    func orderAndLocations() throws {
        let node = try compose("zeta: 1\nalpha: 'two'\n\"é\": |\n  x\nlist: [a, \"b\"]\nfold: >-\n  b\n  c\n")
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.map(\.key.scalar) == ["zeta", "alpha", "é", "list", "fold"])
        #expect(pairs[1].value.content == .scalar("two", .singleQuoted))
        #expect(pairs[1].value.location == at(2, 8))
        #expect(pairs[2].value.content == .scalar("x\n", .literal))
        #expect(pairs[3].value.location == at(5, 7))
        guard case .sequence(let items) = pairs[3].value.content else {
            Issue.record("expected a list")
            return
        }
        #expect(items.map(\.location) == [at(5, 8), at(5, 11)])
        #expect(items[1].content == .scalar("b", .doubleQuoted))
        #expect(pairs[4].value.content == .scalar("b c", .folded))
    }

    @Test("columns count Unicode scalars, not bytes")
    func unicodeColumns() throws {
        let node = try compose("ключ: [𝄞, y]\n")
        guard case .mapping(let pairs) = node.content, case .sequence(let items) = pairs[0].value.content else {
            Issue.record("expected a mapping holding a list")
            return
        }
        #expect(items.map(\.location) == [at(1, 8), at(1, 11)])
    }

    @Test("NUL inside a double-quoted scalar is kept, not truncated")
    func nulInScalar() throws {
        let node = try compose("a: \"x\\0y\"\n")
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[0].value.scalar == "x\u{0}y")
        #expect(pairs[0].value.scalar?.unicodeScalars.count == 3)
    }

    @Test("an empty file, a comment-only file and an empty document compose to an empty mapping")
    func emptyInputs() throws {
        for text in ["", "# nothing here\n", "---\n", "\n\n"] {
            let node = try compose(text)
            #expect(node.content == .mapping([]), "\(text.debugDescription)")
            #expect(node.location.file == testFile)
            #expect(node.location.line >= 1 && node.location.column == 1)
        }
    }

    @Test("a UTF-8 byte-order mark is skipped without shifting columns")
    func utf8BOM() throws {
        let node = try YAML.compose(bytes: [0xEF, 0xBB, 0xBF] + Array("a: b\n".utf8), file: testFile)
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[0].key.location == at(1, 1))
        #expect(pairs[0].value.location == at(1, 4))
    }

    @Test("UTF-16LE with a byte-order mark is detected by libyaml")
    func utf16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "a: é\nb: [true, yes]\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let node = try YAML.compose(bytes: bytes, file: testFile)
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[0].value.scalar == "é")
        #expect(pairs[1].value.location == at(2, 4))
        let error = failure { () throws(YAMLError) in
            _ = try YAMLDecoder().decode(UTF16File.self, from: bytes, file: testFile)
        }
        #expect(error == "t.yml:2:11: error: 'yes' is not a boolean in YAML 1.2; write true or false")
    }

    @Test("invalid UTF-8 is located from libyaml's byte offset, not its 0:0 mark")
    func invalidUTF8() {
        let bytes = Array("a: 1\nbé: ".utf8) + [0xFF] + Array(" 2\n".utf8)
        let error = failure { () throws(YAMLError) in _ = try YAML.compose(bytes: bytes, file: testFile) }
        #expect(error == "t.yml:2:5: error: invalid leading UTF-8 octet (0xFF)")
    }

    @Test("a truncated UTF-8 sequence at the end of the file is an error too")
    func truncatedUTF8() {
        let error = failure { () throws(YAMLError) in
            _ = try YAML.compose(bytes: Array("k: ".utf8) + [0xE2, 0x82], file: testFile)
        }
        #expect(error == "t.yml:1:4: error: incomplete UTF-8 octet sequence")
    }

    @Test("a second document is an error at its start")
    func secondDocument() {
        let message = "error: a second YAML document is not allowed; a file holds exactly one document"
        #expect(failure { () throws(YAMLError) in _ = try compose("a: 1\n---\nb: 2\n") } == "t.yml:2:1: \(message)")
        #expect(
            failure { () throws(YAMLError) in _ = try compose("---\na: 1\n...\n---\nb: 2\n") }
                == "t.yml:4:1: \(message)")
    }

    @Test("a tab in indentation is an error with libyaml's context as a note")
    func tabIndentation() {
        #expect(
            failure { () throws(YAMLError) in _ = try compose("a:\n\tb: 1\n") } == """
                t.yml:2:1: error: found character that cannot start any token (a tab; YAML indentation must use spaces)
                t.yml:2:1: note: while scanning for the next token
                """
        )
        #expect(
            failure { () throws(YAMLError) in _ = try compose("rules:\n  - name: a\n\tdays: 3\n") } == """
                t.yml:3:1: error: found a tab character that violates indentation
                t.yml:2:11: note: while scanning a plain scalar
                """
        )
    }

    @Test("a syntax error carries libyaml's problem and context")
    func syntaxError() {
        let error = failure { () throws(YAMLError) in _ = try compose("a: [1, 2\nb: 3\n") }
        #expect(
            error == """
                t.yml:2:2: error: did not find expected ',' or ']'
                t.yml:1:4: note: while parsing a flow sequence
                """
        )
    }

    @Test("%YAML 1.2 is accepted and %YAML 1.3 rejected")
    func versionDirective() throws {
        #expect(try compose("%YAML 1.2\n---\na: 1\n").content != .mapping([]))
        let error = failure { () throws(YAMLError) in _ = try compose("%YAML 1.3\n---\na: 1\n") }
        #expect(error == "t.yml:1:1: error: found incompatible YAML document")
    }

    @Test("a duplicate key is reported at the second key with a note at the first")
    func duplicateKey() {
        let error = failure { () throws(YAMLError) in _ = try compose("rules:\n  - name: a\n    days: 1\n    name: b\n")
        }
        #expect(error == "t.yml:4:5: error: duplicate key 'name'\nt.yml:2:5: note: first defined here")
    }

    @Test("duplicate keys are found in flow mappings and nested mappings too")
    func duplicateFlowKey() {
        let error = failure { () throws(YAMLError) in _ = try compose("a: {x: 1, y: 2, x: 3}\n") }
        #expect(error == "t.yml:1:17: error: duplicate key 'x'\nt.yml:1:5: note: first defined here")
    }

    @Test("merge keys: explicit keys win, earlier sources win, merged keys are not duplicates")
    func mergeKeys() throws {
        let node = try compose(
            """
            x-base: &base {days: 30, labels: [stale], note: base}
            x-other: &other {days: 60, close: true, note: other}
            rule:
              name: r
              <<: [*base, *other]
              days: 10

            """
        )
        guard case .mapping(let top) = node.content, case .mapping(let rule) = top[2].value.content else {
            Issue.record("expected nested mappings")
            return
        }
        #expect(rule.map(\.key.scalar) == ["name", "labels", "note", "close", "days"])
        #expect(rule.map(\.value.scalar) == ["r", nil, "base", "true", "10"])
        #expect(rule[1].key.location == at(1, 26))
    }

    @Test("a merge value that is not a mapping is an error at the value")
    func badMerge() {
        #expect(
            failure { () throws(YAMLError) in _ = try compose("a:\n  <<: 3\n") }
                == "t.yml:2:7: error: the value of a '<<' merge key must be a mapping or a list of mappings"
        )
        #expect(
            failure { () throws(YAMLError) in _ = try compose("a: &a [1]\nb:\n  <<: [*a]\n") }
                == "t.yml:1:4: error: a '<<' merge list may only contain mappings"
        )
    }

    @Test("aliases resolve to the anchored node; unknown and self-containing aliases are errors")
    func aliases() throws {
        let node = try compose("a: &x [1, 2]\nb: *x\n")
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[1].value == pairs[0].value)
        #expect(
            failure { () throws(YAMLError) in _ = try compose("a: *nope\n") }
                == "t.yml:1:4: error: unknown anchor 'nope'")
        #expect(
            failure { () throws(YAMLError) in _ = try compose("a: &x [1, *x]\n") }
                == "t.yml:1:11: error: alias '*x' refers to a node that contains it"
        )
    }

    /// How long the bomb takes, against a plain document of the budget's size, is `gitbay-bench hostile`'s
    /// "alias bomb" row.
    @Test("a billion-laughs file stops at the alias that crosses the expansion budget")
    func aliasBomb() {
        let levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var text = "a: &a [" + Array(repeating: "lol", count: 10).joined(separator: ",") + "]\n"
        for (previous, name) in zip(levels, levels.dropFirst()) {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
        }
        let error = failure { () throws(YAMLError) in _ = try compose(text) }
        #expect(error == "t.yml:5:29: error: alias '*d' expands the document beyond 100000 nodes")
        let small = YAMLLimits(maxDepth: 256, maxExpandedNodes: 100)
        #expect(
            failure { () throws(YAMLError) in _ = try compose(text, limits: small) }
                == "t.yml:2:29: error: alias '*a' expands the document beyond 100 nodes"
        )
    }

    @Test("a plain large document is limited too")
    func nodeBudget() {
        let text = (1...60).map { "k\($0): v" }.joined(separator: "\n")
        let error = failure { () throws(YAMLError) in
            _ = try compose(text, limits: YAMLLimits(maxDepth: 256, maxExpandedNodes: 100))
        }
        #expect(error == "t.yml:50:6: error: the document has more than 100 nodes")
    }

    /// That stopping early makes a 100,000-deep file cost what a 10,000-deep one does is `gitbay-bench hostile`'s
    /// "deep nesting" row.
    @Test("nesting beyond the depth limit stops before libyaml or the composer go deep", arguments: [10_000, 100_000])
    func deepNesting(depth: Int) {
        let flow = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(
            failure { () throws(YAMLError) in _ = try compose(flow) }
                == "t.yml:1:257: error: nesting deeper than 256 levels")
        let mappings = String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(
            failure { () throws(YAMLError) in _ = try compose(mappings) }
                == "t.yml:1:1025: error: nesting deeper than 256 levels"
        )
        let block = String(repeating: "- ", count: depth) + "x\n"
        #expect(
            failure { () throws(YAMLError) in _ = try compose(block) }
                == "t.yml:1:513: error: nesting deeper than 256 levels")
    }

    @Test("depth limits above the supported maximum are lowered to it")
    func depthCap() {
        var limits = YAMLLimits(maxDepth: 50_000, maxExpandedNodes: 10)
        #expect(limits.maxDepth == YAMLLimits.maxSupportedDepth)
        limits.maxDepth = 20_000
        #expect(limits.maxDepth == 1_000)
        let text = String(repeating: "[", count: 2_000)
        #expect(
            failure { () throws(YAMLError) in
                _ = try compose(text, limits: YAMLLimits(maxDepth: 9_999, maxExpandedNodes: 5_000))
            }
                == "t.yml:1:1001: error: nesting deeper than 1000 levels"
        )
    }

    @Test("CR LF line breaks count as one, like libyaml counts them")
    func crlf() throws {
        let node = try compose("a: 1\r\nb: x(y\r\n")
        guard case .mapping(let pairs) = node.content else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs[1].value.location == at(2, 4))
        #expect(pairs[1].value.location(ofScalarOffset: 1) == at(2, 5))
    }

    @Test("nesting at the depth limit composes")
    func nestingAtLimit() throws {
        let text = String(repeating: "[", count: 256) + "x" + String(repeating: "]", count: 256)
        var node = try compose(text)
        var depth = 0
        while case .sequence(let items) = node.content {
            depth += 1
            node = items[0]
        }
        #expect(depth == 256)
        #expect(node.location == at(1, 257))
    }
}
