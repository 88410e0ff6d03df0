import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let examples = root.appendingPathComponent("examples/rule-tests").path
private let demo = root.appendingPathComponent("examples/demo-forge.json").path
private let rules = root.appendingPathComponent("rules").path

/// A fresh folder holding `files` (name to text), for tests written on the fly.
private func folder(_ files: [String: String]) throws -> String {
    let directory = Scratch.url(
        "gitbay-bot-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, text) in files {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    return directory.path
}

/// A test of the shipped rules on the demo forge, with `expect` as its expectations.
private func demoTest(expect: String) -> String {
    """
    forge: \(demo)
    rules: [\(rules)]
    expect:
    \(expect)
    """
}

/// Every pending entry of the shipped rules on the demo forge, as a test file lists them.
private let demoExpectations = """
      - {rule: mark-stale, item: krz/gitbay#31, actions: [add-label, comment]}
      - {rule: close-stale, item: krz/gitbay#34, actions: [comment, close]}
      - {rule: unmark-stale, item: krz/gitbay#35, actions: [remove-label]}
      - {rule: ready-when-stack-lands, item: krz/gitbay!51, actions: [ready, comment]}
      - {rule: cancel-superseded, item: krz/gitbay/builds/201, actions: [cancel]}
      - {rule: cancel-superseded, item: krz/runner/builds/101, actions: [cancel]}
      - {rule: cancel-superseded, item: krz/runner/builds/102, actions: [cancel]}
      - {rule: close-finished-milestones, item: krz/gitbay/milestones/v1.37.1, actions: [close]}
    """

/// `gitbay-bot test`: the shipped example passes, a wrong expectation fails with a precise
/// difference, and a broken test file is refused at its line and column.
@Suite struct TestCommandTests {
    @Test func theShippedExamplePasses() async {
        let result = await runBot(["test", examples])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output == "ok   commands.yml\nok   demo.yml\n2 tests: 2 passed, 0 failed\n")
        #expect(result.error == "")
    }

    @Test func theOrderOfExpectedEntriesDoesNotMatter() async throws {
        let reversed = demoExpectations.split(separator: "\n").reversed().joined(separator: "\n")
        let directory = try folder(["reversed.yml": demoTest(expect: reversed)])
        let result = await runBot(["test", directory + "/reversed.yml"])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        #expect(result.output.hasPrefix("ok   \(directory)/reversed.yml\n"))
    }

    @Test func aWrongExpectationFailsWithAPreciseDifference() async throws {
        let wrong =
            demoExpectations
            .replacingOccurrences(of: "[ready, comment]", with: "[ready]")
            .replacingOccurrences(of: "krz/runner/builds/102", with: "krz/runner/builds/103")
            .replacingOccurrences(
                of: "  - {rule: unmark-stale, item: krz/gitbay#35, actions: [remove-label]}\n", with: "")
        let directory = try folder([
            "good.yml": demoTest(expect: demoExpectations), "wrong.yml": demoTest(expect: wrong),
        ])
        let result = await runBot(["test", directory])
        #expect(result.code == 1)
        #expect(
            result.output == """
                ok   good.yml
                FAIL wrong.yml
                  missing:    cancel-superseded on krz/runner/builds/103 [cancel]
                  unexpected: cancel-superseded on krz/runner/builds/102 [cancel]
                  unexpected: unmark-stale on krz/gitbay#35 [remove-label]
                  different:  ready-when-stack-lands on krz/gitbay!51: expected [ready], planned [ready, comment]
                2 tests: 1 passed, 1 failed

                """)
    }

    @Test func anEmptyExpectationFailsWhenTheRulesAct() async throws {
        let directory = try folder(["none.yml": "forge: \(demo)\nrules: [\(rules)]\nnow: 2026-09-01\nexpect: []\n"])
        let result = await runBot(["test", directory])
        #expect(result.code == 1)
        #expect(result.output.contains("FAIL none.yml\n  unexpected: cancel-superseded on krz/gitbay/builds/201"))
    }

    @Test func anInvalidTestFileIsRefusedAtItsLineAndColumn() async throws {
        let text = """
            forge: \(demo)
            rules: [\(rules)]
            expect:
              - rule: mark-stal
                item: krz/gitbay#31
                actions: [add-label, comment]
              - rule: mark-stale
                item: krz/gitbay!31
                actions: [add-label]
              - rule: close-stale
                item: krz/gitbay#34
                actions: [coment]
            """
        let directory = try folder(["bad.yml": text, "good.yml": demoTest(expect: demoExpectations)])
        let result = await runBot(["test", directory])
        #expect(result.code == 78)
        #expect(result.output == "ERR  bad.yml\nok   good.yml\n2 tests: 1 passed, 0 failed, 1 invalid\n")
        let file = directory + "/bad.yml"
        #expect(result.error.contains("\(file):4:11: error: no rule is named 'mark-stal'; did you mean 'mark-stale'?"))
        #expect(
            result.error.contains(
                "\(file):8:11: error: mark-stale acts on issues, but krz/gitbay!31 is a merge request"))
        #expect(result.error.contains("\(file):12:15: error: issues have no action 'coment'; did you mean 'comment'?"))
    }

    /// A test's `bots:` are automation as gitbay-bot.yml's are: alice's reply on krz/gitbay#35 no
    /// longer revives it, so the stale rules close it instead; a name that is no account is refused.
    @Test func aTestsBotsAreAutomation() async throws {
        let asBot = demoExpectations.replacingOccurrences(
            of: "{rule: unmark-stale, item: krz/gitbay#35, actions: [remove-label]}",
            with: "{rule: close-stale, item: krz/gitbay#35, actions: [comment, close]}")
        let directory = try folder([
            "bots.yml": demoTest(expect: asBot).replacingOccurrences(of: "expect:", with: "bots: [alice]\nexpect:"),
            "people.yml": demoTest(expect: asBot),
            "bad.yml": demoTest(expect: demoExpectations).replacingOccurrences(
                of: "expect:", with: "bots: [\"@alice\"]\nexpect:"),
        ])
        let result = await runBot(["test", directory])
        #expect(result.output.hasPrefix("ERR  bad.yml\nok   bots.yml\nFAIL people.yml\n"), "\(result.output)")
        #expect(
            result.error.contains("\(directory)/bad.yml:3:8: error: bots lists gitbay account names"), "\(result.error)"
        )
    }

    @Test func anUnknownKeyIsRefusedWithASuggestion() async throws {
        let directory = try folder(["typo.yml": "forge: \(demo)\nrule: [\(rules)]\nexpect: []\n"])
        let result = await runBot(["test", directory])
        #expect(result.code == 78)
        #expect(result.error.contains("typo.yml:1:1: error: missing required key 'rules'"), "\(result.error)")
        #expect(result.error.contains("typo.yml:2:1: note: 'rule' is not a known key; did you mean 'rules'?"))
    }

    @Test func aMissingForgeOrARuleErrorIsInvalid() async throws {
        let broken = "scope: owner:krz\nrules:\n  - name: x\n    on: issues\n    when: [idel > 1d]\n    do: [close]\n"
        let directory = try folder([
            "missing.yml": "forge: nowhere.json\nrules: [\(rules)]\nexpect: []\n",
            "broken.yml": "forge: \(demo)\nrules: [rules/broken-rule.yaml]\nexpect: []\n",
        ])
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
        try Data(broken.utf8).write(to: URL(fileURLWithPath: directory + "/rules/broken-rule.yaml"))
        let result = await runBot(["test", directory])
        #expect(result.code == 78)
        #expect(result.output == "ERR  broken.yml\nERR  missing.yml\n2 tests: 0 passed, 0 failed, 2 invalid\n")
        #expect(
            result.error.contains("missing.yml:1:8: error: cannot read the forge-state file \(directory)/nowhere.json"))
        #expect(
            result.error.contains(
                "\(directory)/rules/broken-rule.yaml:5:12: error: unknown field 'idel'; did you mean 'idle'?"))
    }

    /// A test whose rules folder holds no rule file would pin nothing: it is invalid, at the entry.
    @Test func aRulesFolderWithoutRuleFilesIsInvalid() async throws {
        let directory = try folder(["empty.yml": "forge: \(demo)\nrules: [none]\nexpect: []\n"])
        try FileManager.default.createDirectory(atPath: directory + "/none", withIntermediateDirectories: true)
        let result = await runBot(["test", directory])
        #expect(result.code == 78)
        #expect(result.output == "ERR  empty.yml\n1 test: 0 passed, 0 failed, 1 invalid\n")
        #expect(
            result.error.hasPrefix(
                "\(directory)/empty.yml:2:9: error: \(directory)/none/ holds no rule files (*.yml, *.yaml)\n"),
            "\(result.error)")
    }

    @Test func aMissingFolderIsAUsageError() async {
        let result = await runBot(["test", "/nonexistent/rule-tests"])
        #expect(result.code == 64)
        #expect(result.error.contains("no tests at /nonexistent/rule-tests"))
    }
}
