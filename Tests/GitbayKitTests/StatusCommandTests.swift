import Foundation
import GitbayKit
import Testing

/// Pins `status set` and `status list` against the usage lines of gitbay's `internal/control/status.go`.
///
/// The registry fixture lists both paths among `known_paths` only, without flags, so the registry
/// test cannot check them; the usage strings `runStatusSet` and `runStatusList` register are the
/// contract instead (the simulator's `STATUS_SET_USAGE` is the same line).
@Suite struct StatusCommandTests {
    /// `status.go` `init`: the usage `runStatusSet` is registered with.
    private static let setUsage =
        "status set <owner/name> <sha> --context <c> --state pending|success|failure|error [--description <d>] [--url <u>]"
    /// `status.go` `init`: the usage `runStatusList` is registered with.
    private static let listUsage = "status list <owner/name> <sha>"

    private let repo: RepositoryPath

    init() throws {
        repo = try RepositoryPath("krz/gitbay")
    }

    @Test func bothPathsAreGitbays() throws {
        let registry = try Registry.load()
        #expect(registry.knownPaths.contains("status set"))
        #expect(registry.knownPaths.contains("status list"))
    }

    @Test func statusSetRendersWhatItsUsageAccepts() throws {
        let command = try StatusSetCommand(
            repository: repo, sha: "4b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c", context: "gitbay-bot/stack",
            state: .pending, description: "waits for !33 to merge")
        #expect(
            command.argv == [
                "status", "set", "krz/gitbay", "4b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c", "--context",
                "gitbay-bot/stack", "--state", "pending", "--description", "waits for !33 to merge",
            ])
        #expect(command.control.effect == .write)
        #expect(command.control.stdin == nil)
        #expect(Usage(Self.setUsage).violations(of: command.argv) == [])
        let bare = try StatusSetCommand(repository: repo, sha: "4b1d0c9e", context: "ext/lint", state: .success)
        #expect(bare.argv.contains("--description") == false)
        #expect(Usage(Self.setUsage).violations(of: bare.argv) == [])
    }

    @Test func statusListRendersWhatItsUsageAccepts() throws {
        let command = try StatusListCommand(repository: repo, sha: "4b1d0c9e")
        #expect(command.argv == ["status", "list", "krz/gitbay", "4b1d0c9e"])
        #expect(command.control.effect == .read)
        #expect(Usage(Self.listUsage).violations(of: command.argv) == [])
    }

    /// The checker itself refuses what gitbay's usage does not allow, so the pins above can fail.
    @Test(arguments: [
        ["status", "set", "krz/gitbay", "abcd", "--context", "x", "--state", "skipped"],
        ["status", "set", "krz/gitbay", "abcd", "--state", "success"],
        ["status", "set", "krz/gitbay", "--context", "x", "--state", "success"],
        ["status", "set", "krz/gitbay", "abcd", "extra", "--context", "x", "--state", "success"],
        ["status", "set", "krz/gitbay", "abcd", "--context", "x", "--state", "success", "--title", "t"],
        ["status", "set", "krz/gitbay", "abcd", "--context", "x", "--state"],
        ["status", "list", "krz/gitbay"],
        ["status", "show", "krz/gitbay", "abcd"],
    ])
    func theUsageCheckerRefusesWrongArgv(_ argv: [String]) {
        let usage = argv[1] == "list" ? Usage(Self.listUsage) : Usage(Self.setUsage)
        #expect(usage.violations(of: argv) != [])
    }

    @Test func refusesWhatGitbayRefuses() {
        #expect(throws: GitbayCommandError.invalidStatusContext("CI/test")) {
            try StatusSetCommand(repository: repo, sha: "abcd", context: "CI/test", state: .success)
        }
        #expect(throws: GitbayCommandError.invalidStatusContext(" ")) {
            try StatusSetCommand(repository: repo, sha: "abcd", context: " ", state: .success)
        }
        #expect(throws: GitbayCommandError.unsupportedStatusState("skipped")) {
            try StatusSetCommand(repository: repo, sha: "abcd", context: "ext/x", state: .skipped)
        }
        #expect(throws: GitbayCommandError.invalidCommit("main")) {
            try StatusListCommand(repository: repo, sha: "main")
        }
    }

    @Test func statusListReadsNullAsEmpty() throws {
        let empty = try JSONDecoder().decode(
            CommitStatuses.self, from: Data(#"{"sha":"abcd","combined":"","statuses":null}"#.utf8))
        #expect(empty == CommitStatuses(sha: "abcd"))
        let one = try JSONDecoder().decode(
            CommitStatuses.self,
            from: Data(
                #"{"sha":"abcd","combined":"pending","statuses":[{"context":"x/y","state":"pending","description":"d","creator":"bot"}]}"#
                    .utf8))
        #expect(one.statuses == [CommitStatus(context: "x/y", state: .pending, description: "d", creator: "bot")])
        #expect(one.combined == .pending)
    }
}

/// A usage line of gitbay's registry read as a grammar: literal words, `<positional>`s, flags with
/// a `<value>` or a `a|b|c` choice, and `[optional]` flags.
private struct Usage {
    private var path: [String] = []
    private var positionals = 0
    private var required: [String: [String]?] = [:]
    private var optional: [String: [String]?] = [:]

    init(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        var index = 0
        while index < words.count {
            let word = words[index]
            let isOptional = word.hasPrefix("[")
            let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name.hasPrefix("--") {
                let value = words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                let choices: [String]? = value.hasPrefix("<") ? nil : value.split(separator: "|").map(String.init)
                if isOptional { optional[name] = .some(choices) } else { required[name] = .some(choices) }
                index += 2
                continue
            }
            if name.hasPrefix("<") { positionals += 1 } else { path.append(name) }
            index += 1
        }
    }

    func violations(of argv: [String]) -> [String] {
        guard argv.starts(with: path) else { return ["not '\(path.joined(separator: " "))'"] }
        var problems: [String] = []
        var seen: Set<String> = []
        var count = 0
        var index = path.count
        while index < argv.count {
            let word = argv[index]
            index += 1
            guard let choices = required[word] ?? optional[word] else {
                if word.hasPrefix("--") { problems.append("unknown flag \(word)") } else { count += 1 }
                continue
            }
            guard index < argv.count else {
                problems.append("\(word) needs a value")
                continue
            }
            if let choices, !choices.contains(argv[index]) { problems.append("\(word) \(argv[index])") }
            seen.insert(word)
            index += 1
        }
        if count != positionals { problems.append("\(count) positionals, not \(positionals)") }
        for flag in required.keys where !seen.contains(flag) { problems.append("no \(flag)") }
        return problems
    }
}
