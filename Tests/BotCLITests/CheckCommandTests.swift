import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite struct CheckCommandTests {
    @Test func theShippedRulesAreValid() async {
        let result = await runBot(["check", root.appendingPathComponent("rules").path])
        #expect(result.code == 0)
        #expect(result.error == "")
        #expect(result.output == "3 files, 5 rules: no problems found\n")
    }

    @Test func aMissingPathIsAnError() async {
        let result = await runBot(["check", "/nonexistent/rules"])
        #expect(result.code == 78)
        #expect(result.error == "error: no such file or folder: /nonexistent/rules\n")
    }
}
