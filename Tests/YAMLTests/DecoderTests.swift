import Testing
import YAML

@Suite("Decoding nodes into Swift types")
struct DecoderTests {
    /// One value under the key `v`, so scalar rules can be tested one type at a time.
    struct Box<Value: Decodable>: Decodable {
        var v: Value
    }

    /// A rule file in miniature.
    struct RuleFile: Decodable, Equatable {
        var rules: [Rule]
    }

    /// One rule.
    struct Rule: Decodable, Equatable {
        var name: String
        var days: Int
        var labels: [String]?
        var close: Bool?
    }

    /// A type whose `init(from:)` validates its input and reports inside the string.
    struct Duration: Decodable {
        var days: Int

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard text.hasSuffix("d"), let days = Int(text.dropLast()) else {
                let unit = text.firstIndex { !$0.isNumber }.map { text.distance(from: text.startIndex, to: $0) }
                throw decoder.yamlError("'\(text)' is not a duration; write it like 30d", atScalarOffset: unit)
            }
            self.days = days
        }
    }

    /// A type that throws the standard Codable error from a keyed container.
    struct Window: Decodable {
        var from: Int
        var to: Int

        enum CodingKeys: String, CodingKey {
            case from
            case to
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            from = try container.decode(Int.self, forKey: .from)
            to = try container.decode(Int.self, forKey: .to)
            guard to >= from else {
                throw DecodingError.dataCorruptedError(
                    forKey: .to, in: container, debugDescription: "'to' is before 'from'")
            }
        }
    }

    /// An error type from outside this module, thrown from a nested `init(from:)`.
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused by a custom init" }
    }

    /// A type that always refuses with a foreign error.
    struct Refuser: Decodable {
        init(from decoder: any Decoder) throws {
            throw Refusal()
        }
    }

    @Test(
        "String accepts any non-null scalar verbatim",
        arguments: [
            ("NO", "NO"), ("on", "on"), ("1.10", "1.10"), ("12:30", "12:30"), ("010", "010"), ("yes", "yes"),
            ("'null'", "null"), ("\"~\"", "~"), ("!!str null", "null"), ("\"a\\tb\"", "a\tb"), ("0x1F", "0x1F"),
        ]
    )
    func strings(source: String, expected: String) throws {
        #expect(try decode(Box<String>.self, "v: \(source)").v == expected)
    }

    @Test(
        "String rejects null and collections",
        arguments: [
            ("~", "expected a string, found null"), ("null", "expected a string, found null"),
            ("", "expected a string, found an empty value"), ("[a]", "expected a string, found a list"),
            ("{a: b}", "expected a string, found a mapping"),
        ]
    )
    func stringRejects(source: String, message: String) {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<String>.self, "v: \(source)") }
                == "t.yml:1:\(source.isEmpty ? 3 : 4): error: \(message)")
    }

    @Test(
        "Bool accepts only the YAML 1.2 spellings",
        arguments: [
            ("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false),
        ]
    )
    func bools(source: String, expected: Bool) throws {
        #expect(try decode(Box<Bool>.self, "v: \(source)").v == expected)
    }

    @Test("Bool rejects the YAML 1.1 words with a hint", arguments: ["yes", "no", "on", "off", "y", "n", "Yes", "OFF"])
    func yamlOneOneBools(source: String) {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<Bool>.self, "v: \(source)") }
                == "t.yml:1:4: error: '\(source)' is not a boolean in YAML 1.2; write true or false"
        )
    }

    @Test(
        "Bool rejects other scalars",
        arguments: [
            ("tRUE", "expected a boolean, found 'tRUE'"), ("1", "expected a boolean, found '1'"),
            ("\"true\"", "expected a boolean, found the string 'true' (quoted or tagged scalars are always strings)"),
            ("", "expected a boolean, found an empty value"),
        ]
    )
    func boolRejects(source: String, message: String) {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<Bool>.self, "v: \(source)") }
                == "t.yml:1:\(source.isEmpty ? 3 : 4): error: \(message)")
    }

    @Test(
        "integers: decimal (010 is ten), 0x and 0o",
        arguments: [
            ("010", 10), ("0", 0), ("-5", -5), ("+7", 7), ("0x1F", 31), ("0xff", 255), ("0o17", 15), ("!!int '12'", 12),
        ]
    )
    func integers(source: String, expected: Int) throws {
        #expect(try decode(Box<Int>.self, "v: \(source)").v == expected)
    }

    @Test(
        "integers reject YAML 1.1 forms, floats and quoted numbers",
        arguments: [
            ("1:30", "expected an integer, found '1:30'"), ("0b101", "expected an integer, found '0b101'"),
            ("1_000", "expected an integer, found '1_000'"), ("3.0", "expected an integer, found '3.0'"),
            ("0x", "expected an integer, found '0x'"), ("--1", "expected an integer, found '--1'"),
            ("0o8", "expected an integer, found '0o8'"), ("-0x1", "expected an integer, found '-0x1'"),
            ("'12'", "expected an integer, found the string '12' (quoted or tagged scalars are always strings)"),
            ("~", "expected an integer, found null"),
        ]
    )
    func integerRejects(source: String, message: String) {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<Int>.self, "v: \(source)") }
                == "t.yml:1:4: error: \(message)")
    }

    @Test("integers out of the requested type's range are reported as such")
    func integerRange() throws {
        #expect(try decode(Box<UInt8>.self, "v: 255").v == 255)
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<UInt8>.self, "v: 256") }
                == "t.yml:1:4: error: '256' is out of range for UInt8")
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<UInt>.self, "v: -1") }
                == "t.yml:1:4: error: '-1' is out of range for UInt")
        #expect(try decode(Box<Int64>.self, "v: -9223372036854775808").v == .min)
    }

    @Test(
        "Double accepts core floats and the special values",
        arguments: [
            ("1.5", 1.5), ("-2", -2), (".5", 0.5), ("1e3", 1000), ("+1.", 1), ("6.02E+23", 6.02e23),
            (".inf", .infinity),
            ("-.Inf", -.infinity), ("+.INF", .infinity),
        ]
    )
    func doubles(source: String, expected: Double) throws {
        #expect(try decode(Box<Double>.self, "v: \(source)").v == expected)
    }

    @Test("Double reads .nan in its three spellings")
    func notANumber() throws {
        for spelling in [".nan", ".NaN", ".NAN"] {
            #expect(try decode(Box<Double>.self, "v: \(spelling)").v.isNaN)
        }
        #expect(try decode(Box<Float>.self, "v: 0.25").v == 0.25)
    }

    @Test(
        "Double rejects what Swift would parse but YAML 1.2 does not",
        arguments: ["inf", "nan", "0x10", "1.2.3", "1e", ".", "e3", "1,5"])
    func doubleRejects(source: String) {
        #expect(
            failure { () throws(YAMLError) in _ = try decode(Box<Double>.self, "v: \(source)") }
                == "t.yml:1:4: error: expected a number, found '\(source)'"
        )
    }

    @Test(
        "Optional is nil for every null spelling and present otherwise", arguments: ["~", "null", "Null", "NULL", ""])
    func optionals(source: String) throws {
        #expect(try decode(Box<String?>.self, "v: \(source)").v == nil)
        #expect(try decode(Box<Int?>.self, "v: \(source)").v == nil)
        #expect(try decode(Box<[Int]?>.self, "v: \(source)").v == nil)
    }

    @Test("quoted null and a missing optional key")
    func optionalEdges() throws {
        #expect(try decode(Box<String?>.self, "v: 'null'").v == "null")
        #expect(try decode([String: Int?].self, "a: ~\nb: 2\n") == ["a": nil, "b": 2])
        #expect(try decode(Rule.self, "name: r\ndays: 1\n").labels == nil)
    }

    @Test("a well-formed rule file decodes, merge keys included")
    func ruleFile() throws {
        let file = try decode(
            RuleFile.self,
            """
            x-defaults: &defaults
              days: 30
              labels: [stale]
            rules:
              - name: first
                <<: *defaults
              - <<: *defaults
                name: second
                days: 7
                close: true

            """
        )
        #expect(
            file.rules == [
                Rule(name: "first", days: 30, labels: ["stale"], close: nil),
                Rule(name: "second", days: 7, labels: ["stale"], close: true),
            ]
        )
    }

    @Test("a type mismatch deep inside is located at the value")
    func nestedMismatch() {
        let error = failure { () throws(YAMLError) in
            _ = try decode(RuleFile.self, "rules:\n  - name: a\n    days: 3\n  - name: b\n    days: soon\n")
        }
        #expect(error == "t.yml:5:11: error: expected an integer, found 'soon'")
    }

    @Test("a missing key is located at its mapping, with a note at a likely misspelling")
    func missingKey() {
        #expect(
            failure { () throws(YAMLError) in
                _ = try decode(RuleFile.self, "rules:\n  - name: a\n    days: 3\n  - name: b\n")
            }
                == "t.yml:4:5: error: missing required key 'days'"
        )
        #expect(
            failure { () throws(YAMLError) in _ = try decode(RuleFile.self, "rules:\n  - name: a\n    dyas: 3\n") }
                == "t.yml:2:5: error: missing required key 'days'\nt.yml:3:5: note: 'dyas' is not a known key; did you mean 'days'?"
        )
        #expect(
            failure { () throws(YAMLError) in _ = try decode(RuleFile.self, "") }
                == "t.yml:1:1: error: missing required key 'rules'")
    }

    @Test("unknown keys are errors with a suggestion; x- keys are free")
    func unknownKeys() throws {
        let text = """
            x-anchors: {a: &a 1}
            rules:
              - name: a
                days: *a
                lables: [x]
                frobnicate: 1
                x-note: free text

            """
        #expect(
            failure { () throws(YAMLError) in _ = try decode(RuleFile.self, text) }
                == "t.yml:5:5: error: unknown key 'lables'; did you mean 'labels'?\nt.yml:6:5: error: unknown key 'frobnicate'"
        )
    }

    @Test("a Node field takes its subtree raw and unchecked")
    func rawNode() throws {
        let box = try decode(Box<Node>.self, "v: {anything: [goes]}\n")
        #expect(box.v.location == at(1, 4))
    }

    @Test("a custom init(from:) can report a position inside the scalar")
    func customLocatedError() throws {
        #expect(try decode(Box<Duration>.self, "v: 30d").v.days == 30)
        #expect(
            failure { () throws(YAMLError) in _ = try decode([String: Duration].self, "stale:  \"30 days\"\n") }
                == "t.yml:1:12: error: '30 days' is not a duration; write it like 30d"
        )
    }

    @Test("DecodingError thrown by a custom init(from:) is located at the key's value")
    func decodingErrorFromCustomInit() {
        #expect(
            failure { () throws(YAMLError) in _ = try decode([Window].self, "- {from: 1, to: 2}\n- from: 5\n  to: 3\n")
            }
                == "t.yml:3:7: error: 'to' is before 'from'"
        )
    }

    /// An item kind, decoded through its raw value.
    enum Kind: String, Decodable {
        case issues
        case builds
    }

    @Test("a bad raw value is located at the value")
    func rawValueEnum() throws {
        #expect(try decode([Kind].self, "[issues, builds]") == [.issues, .builds])
        let error = try #require(
            failure { () throws(YAMLError) in _ = try decode([String: Kind].self, "kind:   isues\n") })
        #expect(error.hasPrefix("t.yml:1:9: error: "))
        #expect(error.contains("isues"))
    }

    @Test("a foreign error thrown by a nested init(from:) is located at that node")
    func foreignError() {
        #expect(
            failure { () throws(YAMLError) in _ = try decode([String: [Refuser]].self, "a:\n  - x\n") }
                == "t.yml:2:5: error: refused by a custom init"
        )
    }
}
