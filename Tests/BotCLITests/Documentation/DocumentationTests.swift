import ArgumentParsing
import BotCLI
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import RuleEngine
import Testing

private let root = SimulatorProcess.repositoryRoot

private func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
}

/// The shell commands of a Markdown file's ```sh blocks, one per line.
private func shellCommands(_ markdown: String) -> [String] {
    var commands: [String] = []
    var inside = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
            inside = line == "```sh"
            continue
        }
        if inside { commands.append(String(line)) }
    }
    return commands
}

/// The built `gitbay-bot`, in the folder of this test binary.
private func builtBot() -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("gitbay-bot")
}

/// The `gitbay-bot` arguments of `Scripts/demo.sh`'s `swift run gitbay-bot` line, without the `"$@"` it passes on.
private func demoArguments() throws -> [String] {
    let prefix = "exec swift run gitbay-bot "
    let line = try #require(try text("Scripts/demo.sh").split(separator: "\n").first { $0.hasPrefix(prefix) })
    return line.dropFirst(prefix.count).split(separator: " ").map(String.init).filter { $0 != "\"$@\"" }
}

@Suite struct DocumentationTests {
    @Test func theReadmeGivesTheTwoSetUpCommandsAndCIRunsTheTestOne() throws {
        let commands = shellCommands(try text("README.md"))
        #expect(commands.first == "Scripts/demo.sh")
        #expect(commands.dropFirst().first == "Scripts/test.sh")
        let ci = try text(".ci/run").split(separator: "\n").last { !$0.isEmpty && !$0.hasPrefix("#") }
        // CI tries every seed of the property tests; the README says so.
        #expect(ci == "Scripts/test.sh --deep")
        #expect(try text("README.md").contains("`Scripts/test.sh --deep`"))
    }

    @Test func theReadmeDemoCommandRunsAsDocumented() async throws {
        let bot = builtBot()
        try #require(FileManager.default.isExecutableFile(atPath: bot.path), "build gitbay-bot first")
        let arguments = try demoArguments()
        #expect(arguments == ["run", "--snapshot", "examples/demo-forge.json"])
        let demo = try ChildProcess(
            bot.path, arguments, environment: ["PATH": "/usr/bin:/bin"], directory: root.path, error: .discard)
        let ended = try await demo.wait(timeout: .seconds(60))
        let printed = ended.outputText
        #expect(ended.status == 0)
        #expect(printed.hasSuffix("11 commands pending (6 rules, 8 entries)\n"))
        #expect(printed.contains("+ issue close krz/gitbay 34"))
    }

    /// Every example of docs/plan-format.md that says what it is the output of ("`gitbay-bot ...`
    /// prints") is what the built bot prints for it, run in the checkout, byte for byte.
    @Test func thePlanFormatExamplesAreWhatTheBotPrints() async throws {
        let bot = builtBot()
        try #require(FileManager.default.isExecutableFile(atPath: bot.path), "build gitbay-bot first")
        let lines = try text("docs/plan-format.md").split(separator: "\n", omittingEmptySubsequences: false)
        var examples: [(arguments: [String], output: String)] = []
        for (index, line) in lines.enumerated()
        where line.contains("`gitbay-bot ") && lines[index + 1].hasPrefix("prints") {
            let command = try #require(line.components(separatedBy: "`gitbay-bot ").last?.split(separator: "`").first)
            let start = try #require(lines[(index + 1)...].firstIndex { $0.hasPrefix("```") }) + 1
            let end = try #require(lines[start...].firstIndex { $0 == "```" })
            examples.append(
                (command.split(separator: " ").map(String.init), lines[start..<end].joined(separator: "\n") + "\n"))
        }
        #expect(examples.count == 2)
        for example in examples {
            let run = try ChildProcess(
                bot.path, example.arguments, environment: ["PATH": "/usr/bin:/bin"], directory: root.path,
                error: .discard)
            let ended = try await run.wait(timeout: .seconds(60))
            #expect(ended.status == 0, "\(example.arguments)")
            #expect(ended.outputText == example.output, "\(example.arguments)")
        }
    }

    /// docs/state.md says of every command what it does with the state database, in the first
    /// column of its "Which commands use it" table, each command once.
    @Test func theStatePageSaysWhatEveryCommandDoesWithTheState() throws {
        let page = try text("docs/state.md")
        let section = try #require(page.components(separatedBy: "## Which commands use it\n").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        let named = rows.flatMap { row in
            let cell = row.split(separator: "|").first ?? ""
            // The command's first word in each code span: `run --dry-run` is run's.
            return cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.compactMap { $0.element.split(separator: " ").first.map(String.init) }
        }
        let commands = BotCommandTable.root.subcommands.map(\.name)
        #expect(Set(named) == Set(commands), "\(named)")
        #expect(Set(commands).count == commands.count)
    }

    /// docs/configuration.md's precedence table has its five columns in every row, and names in
    /// its file column every key the table of the file lists, and no other.
    @Test func theConfigurationPrecedenceTableCoversEveryKeyOnce() throws {
        let page = try text("docs/configuration.md")
        func table(after heading: String) throws -> [[String]] {
            let section = try #require(page.components(separatedBy: heading).dropFirst().first)
            let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
            return rows.dropFirst(2).map { row in
                row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        func keys(_ cell: String) -> [String] {
            cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map
            { String($0.element) }
        }
        let precedence = try table(after: "## Precedence\n")
        for row in precedence {
            #expect(row.count == 5, "\(row)")
        }
        let fileKeys = try table(after: "## The file\n").flatMap { keys($0[0]) }
        let listed = precedence.flatMap { keys($0.count > 3 ? $0[3] : "") }
        #expect(fileKeys.count > 10)
        #expect(listed.sorted() == fileKeys.sorted())
    }

    @Test func everyRuleFileInTheDocsChecks() async throws {
        for page in ["docs/rules.md", "README.md"] {
            let markdown = try text(page)
            var blocks: [String] = []
            var current: [String]?
            for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "```yaml" {
                    current = []
                } else if line.hasPrefix("```"), let block = current {
                    blocks.append(block.joined(separator: "\n") + "\n")
                    current = nil
                } else {
                    current?.append(String(line))
                }
            }
            for block in blocks where block.contains("rules:") {
                let set =
                    block.contains("extends:")
                    ? try await Self.loadExtending(block, page: page)
                    : RuleSet.load(files: [(page, Array(block.utf8))], registry: BuiltinPlugins.registry)
                #expect(set.diagnostics.isEmpty, "\(page): \(set.diagnostics)")
                #expect(!set.rules.isEmpty)
            }
        }
    }

    /// A repository's own file of the docs, built on the shipped stale rules as its base (their
    /// `scope:` left out, since the base acts on the repository that extends it).
    private static func loadExtending(_ block: String, page: String) async throws -> RuleSet {
        let shipped = try text("rules/stale-issues.yml").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("scope:") }.joined(separator: "\n")
        return await RepositoryRuleChain.load(
            (page, Array(block.utf8)), confinement: RepositoryConfinement(repository: try RepositoryPath("krz/app")),
            registry: BuiltinPlugins.registry, fetcher: ShippedBase(text: shipped))
    }
}

/// Serves `text` as whatever file `extends:` names.
private struct ShippedBase: RuleFileFetcher {
    var text: String

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        .success(Array(text.utf8))
    }
}
