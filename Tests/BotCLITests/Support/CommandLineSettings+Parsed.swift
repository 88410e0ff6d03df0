import ArgumentParsing
import Testing

@testable import BotCLI

extension CommandLineSettings {
    /// What the bot's command line `arguments` give, for a command that uses its settings as `use`
    /// says; a line that does not parse is recorded as the test's issue, and thrown.
    static func parsed(_ arguments: [String], use: ConfigurationUse = []) throws -> CommandLineSettings {
        guard
            case .run(let invocation) = CommandParser.parse(
                arguments, root: BotCommandTable.root, width: 80, shell: nil)
        else {
            Issue.record("\(arguments) did not parse")
            throw CommandFailure("no invocation", code: .usage)
        }
        return try CommandLineSettings(invocation, use: use)
    }
}
