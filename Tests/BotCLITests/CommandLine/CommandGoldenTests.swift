import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let helpFolder = root.appendingPathComponent("Tests/BotCLITests/Fixtures/help")
private let rules = root.appendingPathComponent("rules").path
private let demo = root.appendingPathComponent("examples/demo-forge.json").path

/// Every command's help screen and the exit code and first line of its usage failures, pinned
/// whole, so that reworking how commands are declared and dispatched changes nothing a user sees.
///
/// The screens in `Fixtures/help` were recorded from the binary before commands became typed
/// (`gitbay-bot <command> --help` with COLUMNS unset); a deliberate change to a command's help
/// records its file again.
@Suite struct CommandGoldenTests {
    static let commands = [
        "run", "plan", "apply", "explain", "history", "watch", "check", "schema", "snapshot", "test",
    ]

    @Test(arguments: [""] + commands)
    func theHelpScreenIsUnchanged(_ command: String) async throws {
        let expected = try String(
            contentsOf: helpFolder.appendingPathComponent("\(command.isEmpty ? "root" : command).txt"), encoding: .utf8)
        let result = await runBot((command.isEmpty ? [] : [command]) + ["--help"])
        #expect(result.code == 0)
        #expect(result.output + result.error == expected)
    }

    /// A command line and what it must answer: its exit code and the start of what it prints.
    struct Failure: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var code: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [Failure] = [
        Failure(arguments: ["plan", "--bogus"], code: 64, message: "Error: Unknown option '--bogus'"),
        Failure(
            arguments: ["watch", rules, "--interval", "0s"], code: 64,
            message: "error: --interval takes a duration of a second or more, such as 30s or 15m, not '0s'"),
        Failure(
            arguments: ["watch", rules, "--interval", "abc"], code: 64,
            message: "error: --interval takes a duration of a second or more, such as 30s or 15m, not 'abc'"),
        Failure(
            arguments: ["watch", rules, "--full-every", "0.5s"], code: 64,
            message: "error: --full-every takes a duration of a second or more, such as 30s or 15m, not '0.5s'"),
        Failure(
            arguments: ["run", rules, "--max-actions", "x"], code: 64,
            message: "error: --max-actions takes a whole number, not 'x'"),
        Failure(
            arguments: ["explain", "nothing", rules], code: 64,
            message: "error: 'nothing' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213"),
        Failure(arguments: ["frob"], code: 64, message: "Error: Unexpected argument 'frob'. Did you mean 'run'?"),
        Failure(
            arguments: ["apply", "/nonexistent"], code: 64,
            message: "error: cannot read the plan /nonexistent: no such file or folder"),
        Failure(
            arguments: ["plan", "--format", "yaml"], code: 64,
            message: "Error: The value 'yaml' is invalid for '--format <format>'."),
        Failure(
            arguments: ["run", rules, "--summary-issue", "bad"], code: 64,
            message: "error: --summary-issue takes owner/name: invalid repository path 'bad'"),
        Failure(
            arguments: ["plan", rules, "--mr-section", "x"], code: 64,
            message: "error: --mr-section takes a merge request, owner/name!12, not 'x'"),
        Failure(
            arguments: ["watch", rules, "--listen", "nope"], code: 64,
            message: "error: --listen takes HOST:PORT with HOST an IP address or localhost"),
        Failure(
            arguments: ["plan", rules, "--snapshot", demo, "--now", "yesterday"], code: 64,
            message: "error: --now takes 2026-11-29 or an RFC 3339 time, not 'yesterday'"),
        Failure(
            arguments: ["history", "--limit", "x"], code: 64,
            message: "error: --limit takes a whole number of 1 or more, not 'x'"),
        Failure(
            arguments: ["check", "/nonexistent"], code: 78, message: "error: no such file or folder: /nonexistent"),
        Failure(
            arguments: ["plan", "/nonexistent", "--snapshot", "/nonexistent"], code: 78,
            message: "error: no such file or folder: /nonexistent"),
        Failure(
            arguments: ["snapshot"], code: 64, message: "Error: Missing expected argument '--scope <query>'"),
        Failure(
            arguments: ["test", "/nonexistent"], code: 64,
            message: "error: no tests at /nonexistent; pass a folder of test files or one test file"),
        Failure(
            arguments: ["run", rules, "--url", "http://127.0.0.1:9"], code: 64,
            message: "error: no API token: set GITBAY_TOKEN or pass --token-file"),
    ]

    @Test(arguments: failures)
    func aUsageFailureKeepsItsExitCodeAndMessage(_ failure: Failure) async {
        let result = await runBot(failure.arguments)
        #expect(result.code == failure.code, "\(result.error)")
        #expect((result.output + result.error).hasPrefix(failure.message), "\(result.output + result.error)")
    }

    @Test func theVersionIsPrintedAlone() async {
        let result = await runBot(["--version"])
        #expect(result.code == 0)
        #expect(result.output.hasSuffix("\n") && !result.output.contains(" "))
    }
}
