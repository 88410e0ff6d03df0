import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json").path
private let rules = root.appendingPathComponent("rules").path

/// A temporary file holding `text`.
private func file(_ text: String, named name: String) throws -> String {
    let url = Scratch.url("\(UUID().uuidString)-\(name)")
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Every error a user can cause at the command line or with a file, offline: its message and exit code.
@Suite struct CommandErrorTests {
    private func expectError(
        _ arguments: [String], environment: [String: String] = [:], code: Int32, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let result = await runBot(arguments, environment: environment)
        #expect(result.code == code, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.contains(message), "\(result.error)", sourceLocation: sourceLocation)
    }

    @Test func aBadNowIsAUsageError() async {
        await expectError(
            ["plan", rules, "--snapshot", demo, "--now", "yesterday"], code: 64,
            message: "error: --now takes 2026-11-29 or an RFC 3339 time, not 'yesterday'")
    }

    /// A misspelt rule would leave the tripwire up with nothing said.
    @Test func aForceRuleNoRuleHasIsAUsageErrorWithTheNearestName() async {
        await expectError(
            ["plan", rules, "--snapshot", demo, "--force-rule", "mark-stal"], code: 64,
            message: "error: --force-rule mark-stal: no rule has that name; did you mean 'mark-stale'?")
    }

    @Test func aMissingTokenIsAUsageErrorBeforeAnyRequest() async {
        await expectError(
            ["plan", rules, "--url", "http://127.0.0.1:9"], code: 64,
            message: "error: no API token: set GITBAY_TOKEN or pass --token-file")
    }

    @Test func aSnapshotThatCannotBeReadIsAUsageErrorThatSaysWhy() async {
        await expectError(
            ["plan", rules, "--snapshot", "/nonexistent/forge.json"], code: 64,
            message: "error: cannot read the snapshot /nonexistent/forge.json: no such file or folder\n")
        let folder = root.appendingPathComponent("examples").path
        await expectError(
            ["plan", rules, "--snapshot", folder], code: 64,
            message: "error: cannot read the snapshot \(folder): Is a directory\n")
    }

    /// A snapshot that is not JSON at all is reported where the parser stopped, as `check` reports
    /// a rule file; the column counts characters, not bytes.
    @Test func aSnapshotThatIsNotJSONIsReportedAtItsLineAndColumn() async throws {
        let garbled = try file(
            #"{"format": "gitbay-forge-state/1", "me": "b",\#n  "repos": [ "é", x ]\#n}\#n"#, named: "forge.json")
        await expectError(
            ["plan", rules, "--snapshot", garbled], code: 64,
            message: "error: \(garbled):2:19: not valid JSON: invalid value\n")
        let cut = try file("{\n  \"format\": \"gitbay-forge-state/1\",\n", named: "forge.json")
        await expectError(
            ["plan", rules, "--snapshot", cut], code: 64,
            message: "error: \(cut):3:1: not valid JSON: unexpected end of file during JSON parse\n")
    }

    @Test func invalidRulesStopTheRunWithExit78() async throws {
        let bad = try file("scope: owner:krz\nrules:\n  - name: x\n    on: issues\n    do: [clsoe]\n", named: "bad.yml")
        await expectError(
            ["plan", bad, "--snapshot", demo], code: 78,
            message: "error: the rules have 1 error; nothing was read or done")
    }

    @Test func anUnwritablePlanFileIsExit74() async {
        await expectError(
            ["plan", rules, "--snapshot", demo, "-o", "/nonexistent/dir/plan.json"], code: 74,
            message: "error: cannot write the plan to /nonexistent/dir/plan.json: no such file or folder")
    }

    @Test func explainNeedsAnItemReference() async {
        await expectError(
            ["explain", "gitbay-31", rules, "--snapshot", demo], code: 64,
            message: "error: 'gitbay-31' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213")
        await expectError(
            ["explain", "krz/gitbay#999", rules, "--snapshot", demo], code: 1,
            message: "error: krz/gitbay#999 is not in snapshot:\(demo)")
    }

    @Test func applyRefusesWhatIsNotAPlan() async throws {
        let token = ["GITBAY_TOKEN": "gb_test"]
        await expectError(
            ["apply", "/nonexistent/plan.json", "--url", "http://127.0.0.1:9"], environment: token, code: 64,
            message: "error: cannot read the plan /nonexistent/plan.json: no such file or folder\n")
        let future = try file(#"{"format":"gitbay-bot-plan/2"}"#, named: "plan.json")
        await expectError(
            ["apply", future, "--url", "http://127.0.0.1:9"], environment: token, code: 64,
            message: "is not a gitbay-bot-plan/1 plan")
    }
}
