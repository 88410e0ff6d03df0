import Foundation
import GitbayTestSupport
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

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

    @Test func aMissingPathIsAnError() async {
        let result = await runBot(["check", "/nonexistent/rules"])
        #expect(result.code == 78)
        #expect(result.error == "error: no such file or folder: /nonexistent/rules\n")
    }
}
