import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot

@Suite struct CheckCommandTests {
    @Test func theShippedRulesAreValid() async {
        let result = await runBot(["check", root.appendingPathComponent("rules").path])
        #expect(result.code == 0)
        #expect(result.error == "")
        #expect(result.output == "4 files, 6 rules: no problems found\n")
    }

    /// `ready` remembers a landing only through the rule's marked comment: without a comment the
    /// rule still runs, and `check` says what it will do to a merge request marked draft again.
    @Test func readyWithoutACommentIsAWarningNotAnError() async throws {
        let rule = """
            scope: owner:krz
            rules:
              - name: ready-stack
                on: merge_requests
                when:
                  - draft
                  - stack.landed
                do:
                  - ready

            """
        let file = Scratch.url("ready-\(UUID().uuidString).yml")
        try Data(rule.utf8).write(to: file)
        let result = await runBot(["check", file.path])
        #expect(result.code == 0)
        #expect(result.output == "1 file, 1 rule: 1 warning\n")
        #expect(
            result.error == """
                \(file.path):9:9: warning: 'ready' without 'comment': the rule's marked comment is how the bot \
                remembers it readied this landing; without it, a merge request someone marks draft again is \
                readied again on the next run
                      - ready
                        ^

                """)
        try Data((rule + "      - comment: Ready for review.\n").utf8).write(to: file)
        let commented = await runBot(["check", file.path])
        #expect(commented.output == "1 file, 1 rule: no problems found\n")
        #expect(commented.error == "")
    }

    /// A scheduled job with no rules would do nothing every time it runs: every command that reads
    /// rules stops with exit 78 on a folder without rule files, one of other files as much as an
    /// empty one.
    @Test(arguments: ["check", "plan", "run", "watch", "explain"])
    func aRulesFolderWithoutRuleFilesIsAnError(_ command: String) async throws {
        let folder = Scratch.url("no-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("# notes\n".utf8).write(to: folder.appendingPathComponent("README.md"))
        let demo = root.appendingPathComponent("examples/demo-forge.json").path
        var arguments = [command] + (command == "explain" ? ["krz/gitbay#31"] : []) + [folder.path]
        switch command {
        case "check": break
        case "watch": arguments += ["--url", "http://127.0.0.1:9"]
        default: arguments += ["--snapshot", demo]
        }
        let result = await runBot(arguments)
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(
            result.error == "error: \(folder.path)/ holds no rule files (*.yml, *.yaml); nothing to \(command)\n")
    }

    @Test func aMissingPathIsAnError() async {
        let result = await runBot(["check", "/nonexistent/rules"])
        #expect(result.code == 78)
        #expect(result.error == "error: no such file or folder: /nonexistent/rules\n")
    }

    /// Each path is read on its own: one that cannot be read is said, and the others are still
    /// checked, so one run reports every mistake (it used to stop at the missing path).
    @Test func aMissingPathDoesNotHideTheMistakesOfTheOthers() async throws {
        let file = Scratch.url("broken-\(UUID().uuidString).yml")
        let rule = "scope: owner:krz\nrules:\n  - name: nudge\n    on: issues\n    when: [quiet > 7]\n    do: [close]\n"
        try Data(rule.utf8).write(to: file)
        let result = await runBot(["check", "/nonexistent/rules", file.path])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(
            result.error == """
                error: no such file or folder: /nonexistent/rules
                \(file.path):5:20: error: '7' is not a duration; write a number and a unit: 60d, 2w, 36h, 90m, 30s
                    when: [quiet > 7]
                                   ^
                1 file: 2 errors

                """)
    }
}
