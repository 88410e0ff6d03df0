import ArgumentParsing
import Testing

/// Version output and the mapping of every exit to its text, stream and exit code.
@Suite struct OutcomeTests {
    @Test func versionPrintsTheStringAlone() {
        #expect(Harness.message(["--version"]) == MessageInfo(text: "1.2.0\n", stream: .output, exitCode: 0))
        #expect(Harness.message(["sync", "--version"]) == MessageInfo(text: "1.2.0\n", stream: .output, exitCode: 0))
    }

    @Test func innermostVersionWins() {
        #expect(
            Harness.message(["report", "builds", "--version"])
                == MessageInfo(text: "0.9.0-beta\n", stream: .output, exitCode: 0))
    }

    @Test func versionIsAnUnknownOptionWhenNoVersionIsSet() {
        let root = CommandSpec(name: "tool", options: [.flag("verbose")])
        let expected = UsageError(message: "Unknown option '--version'", usage: "tool [--verbose]", commandPath: "tool")
        #expect(CommandParser.parse(["--version"], root: root) == .exit(.usageError(expected)))
    }

    @Test func helpWinsOverVersion() {
        #expect(
            Harness.message(["--version", "--help"])
                == MessageInfo(text: HelpTests.rootHelp, stream: .output, exitCode: 0))
    }

    @Test func failureGoesToStandardErrorWithExitCodeOne() {
        #expect(
            MessageInfo(.failure("the forge answered 503"))
                == MessageInfo(text: "Error: the forge answered 503\n", stream: .error, exitCode: 1))
    }

    @Test func bareExitCodeIsSilent() {
        #expect(MessageInfo(.exitCode(2)) == MessageInfo(text: "", stream: .error, exitCode: 2))
        #expect(MessageInfo(.exitCode(0)) == MessageInfo(text: "", stream: .output, exitCode: 0))
    }

    @Test func completionScriptGoesToStandardOutput() {
        guard let message = Harness.message(["--generate-completion-script", "bash"]) else {
            Issue.record("expected a script")
            return
        }
        #expect(message.stream == .output)
        #expect(message.exitCode == 0)
        #expect(message.text.hasPrefix("#!/bin/bash\n"))
    }
}
