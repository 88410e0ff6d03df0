import GitbayKit
import Testing

/// Every typed command's argv is one gitbay's registry accepts, and the checker catches wrong ones.
///
/// The registry is the server's own contract; a command that drifts from it would fail at run time
/// with exit 2 (or, worse, do something else), so this is checked offline for every command.
@Suite struct RegistryTests {
    private let validator: RegistryValidator

    init() throws {
        validator = RegistryValidator(registry: try Registry.load())
    }

    @Test func everyTypedCommandMatchesTheRegistry() throws {
        for sample in try SampleCommand.all() {
            #expect(validator.violations(of: sample.control) == [], "\(sample.name)")
        }
    }

    @Test func issueListFormsAreSelectedByQueryFlag() throws {
        let query = try IssueQueryCommand(query: "repo:krz/gitbay is:open").control
        #expect(validator.violations(of: query) == [])
        let repositoryFormWithQuery = ControlCommand(
            argv: ["issue", "list", "krz/gitbay", "--q", "is:open", "--limit", "5"], effect: .read)
        #expect(!validator.violations(of: repositoryFormWithQuery).isEmpty)
    }

    /// The reads of a repository's own rules file (issue 43), pinned before a typed command sends
    /// them: a level of the tree at a tip, and the file at that tip.
    @Test(arguments: [
        ["repo", "tree", "krz/gitbay", ".gitbay", "--ref", "0123abcd"],
        ["repo", "tree", "krz/gitbay"],
        ["repo", "cat", "krz/gitbay", ".gitbay/bot.yml", "--ref", "0123abcd"],
        ["repo", "cat", "krz/gitbay", ".gitbay/bot.yml"],
    ])
    func repositoryFileReadsMatchTheRegistry(_ argv: [String]) {
        #expect(validator.violations(of: ControlCommand(argv: argv, effect: .read)) == [])
    }

    @Test(arguments: [
        ControlCommand(argv: ["repo", "cat", "krz/gitbay"], effect: .read),
        ControlCommand(argv: ["repo", "cat", "krz/gitbay", "--", ".gitbay/bot.yml"], effect: .read),
        ControlCommand(argv: ["repo", "cat", "krz/gitbay", ".gitbay/bot.yml", "--ref"], effect: .read),
        ControlCommand(argv: ["repo", "cat", "krz/gitbay", "a", "b"], effect: .read),
        ControlCommand(argv: ["repo", "tree", "krz/gitbay", ".gitbay", "--path", "x"], effect: .read),
        ControlCommand(argv: ["repo", "cat", "krz/gitbay", ".gitbay/bot.yml"], effect: .write),
        ControlCommand(argv: ["issue", "list", "krz/gitbay", "--state", "merged", "--limit", "50"], effect: .read),
        ControlCommand(argv: ["issue", "label", "krz/gitbay", "7"], effect: .write),
        ControlCommand(argv: ["issue", "label", "krz/gitbay", "7", "--add=stale"], effect: .write),
        ControlCommand(argv: ["issue", "list", "--q", "is:open", "--state", "open", "--limit", "5"], effect: .read),
        ControlCommand(argv: ["issue", "list", "--q", "a b", "--query", "mine", "--limit", "5"], effect: .read),
        ControlCommand(argv: ["issue", "list", "--q", "is:mr is:open", "--limit", "5"], effect: .read),
        ControlCommand(argv: ["issue", "show", "krz/gitbay"], effect: .read),
        ControlCommand(argv: ["issue", "show", "krz/gitbay", "0"], effect: .read),
        ControlCommand(argv: ["issue", "show", "krz gitbay", "3"], effect: .read),
        ControlCommand(argv: ["build", "list", "krz/gitbay", "--limit", "500"], effect: .read),
        ControlCommand(argv: ["build", "list", "krz/gitbay", "--status", "skipped", "--limit", "5"], effect: .read),
        ControlCommand(argv: ["mr", "close", "krz/gitbay", "5", "--by", "5"], effect: .write),
        ControlCommand(argv: ["issue", "list", "krz/gitbay", "--limit", "5", "--limit", "6"], effect: .read),
        ControlCommand(argv: ["issue", "close", "krz/gitbay", "7"], effect: .read),
        ControlCommand(argv: ["issue", "close", "krz/gitbay", "7"], stdin: "why", effect: .write),
        ControlCommand(argv: ["issue", "comment", "krz/gitbay", "7", "--file", "-"], effect: .write),
        ControlCommand(
            argv: ["issue", "comment", "krz/gitbay", "7", "--message", "hi", "--file", "-"], stdin: "hi", effect: .write
        ),
        ControlCommand(argv: ["issue", "frobnicate", "krz/gitbay"], effect: .write),
        ControlCommand(argv: ["label", "set", "krz/gitbay", "x", "--color", "red"], effect: .write),
        ControlCommand(argv: ["label", "set", "krz/gitbay", String(repeating: "x", count: 51)], effect: .write),
        ControlCommand(argv: ["mr", "ready", "krz/gitbay", "160", "--force"], effect: .write),
        ControlCommand(argv: ["whoami", "me"], effect: .read),
        ControlCommand(argv: ["repo", "deps", "status", "krz/gitbay"], effect: .write),
    ])
    func wrongArgvIsRejected(_ command: ControlCommand) {
        #expect(!validator.violations(of: command).isEmpty, "\(command.argv)")
    }
}
