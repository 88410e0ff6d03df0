import ArgumentParsing
import Testing

/// Runs the parser against ``SampleTool`` the way the tool's entry point will, for whole-output comparisons.
enum Harness {
    /// The message the entry point would print for `arguments`, or nil when they parse into a command to run.
    static func message(_ arguments: [String], width: Int = 80, shell: String? = nil) -> MessageInfo? {
        switch CommandParser.parse(arguments, root: SampleTool.root, width: width, shell: shell) {
        case .run:
            return nil
        case .exit(let exit):
            return MessageInfo(exit)
        }
    }

    /// The invocation `arguments` parse into, failing the test (with the message) when they do not.
    static func invocation(_ arguments: [String]) throws -> Invocation {
        let outcome = CommandParser.parse(arguments, root: SampleTool.root)
        guard case .run(let invocation) = outcome else {
            Issue.record("expected a command to run, got \(outcome)")
            throw HarnessFailure()
        }
        return invocation
    }

    /// The stderr text of a usage error, checking the stream and exit code on the way.
    static func usageError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard let message = message(arguments) else {
            Issue.record(
                "expected a usage error for \(arguments), got a command to run", sourceLocation: sourceLocation)
            return ""
        }
        #expect(message.stream == .error, sourceLocation: sourceLocation)
        #expect(message.exitCode == 64, sourceLocation: sourceLocation)
        return message.text
    }

    /// The stdout text of a help screen, checking the stream and exit code on the way.
    static func help(
        _ arguments: [String], width: Int = 80, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        guard let message = message(arguments, width: width) else {
            Issue.record("expected help for \(arguments), got a command to run", sourceLocation: sourceLocation)
            return ""
        }
        #expect(message.stream == .output, sourceLocation: sourceLocation)
        #expect(message.exitCode == 0, sourceLocation: sourceLocation)
        return message.text
    }
}
