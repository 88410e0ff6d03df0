import ArgumentParsing
import Foundation
import GitbayClient
import GitbayPorts
import RuleEngine

/// `gitbay-bot snapshot --scope QUERY -o FILE`: records a live forge as a forge-state file, so rules
/// can be planned, explained and tested offline against exactly what the server held.
struct SnapshotCommand: BotCommand {
    static let spec = CommandSpec(
        name: "snapshot",
        abstract: "Record the forge in a file for offline runs.",
        discussion: """
            Reads every repository in the scope through a read-only client (default branch, branches \
            and tags, labels, milestones, the dependency checker, open issues and merge requests with \
            their full detail, and the newest 200 builds) and writes them as a forge-state file \
            (docs/forge-state.md). Plan against it with 'gitbay-bot plan --snapshot FILE', test rules \
            on it with 'gitbay-bot test', or serve it with the gitbay simulator. The token is never \
            written to the file.
            """,
        options: [
            scope.spec, allStates, output.spec,
        ] + SharedOptions.connection
    )

    static let scope = TypedOption<RuleScope>(
        .value(
            "scope", valueName: "query", help: "The repositories to record (repo: and owner: terms).", required: true),
        parse: SharedOptions.scope(parsing:))
    static let allStates = OptionSpec.flag(
        "all-states", help: "Record closed issues and merged or closed merge requests too.")
    static let output = TypedOption<String>(
        .value("output", short: "o", valueName: "file", help: "Write the forge-state file here.", required: true))

    let context: CommandContext
    let scope: RuleScope
    let allStates: Bool
    /// The forge-state file to write.
    let path: String
    /// Whether to print the reads made (`--verbose`).
    let showsReads: Bool
    /// The configuration's keys the command line gives.
    let settings: CommandLineSettings

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.context = context
        scope = try Self.scope.value(in: invocation) ?? RuleScope(terms: [])
        allStates = invocation.flag(Self.allStates)
        path = try Self.output.value(in: invocation) ?? ""
        showsReads = invocation.flag(SharedOptions.verbose)
        settings = try CommandLineSettings(invocation, use: .sendsToken)
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = context.console
        let client = try ForgeConnection.client(
            ConfigurationLoader.settings(
                settings, environment: context.environment, console: console, registry: context.registry),
            access: .readOnly, console: console)
        let reader = ForgeSnapshotReader(
            scope: scope, allStates: allStates, registry: context.registry)
        let snapshot: ForgeSnapshot
        do {
            snapshot = try await reader.read(reader: client, now: Date())
        } catch let error as GitbayError {
            throw CommandFailure(error, server: client.configuration.baseURL)
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
        if showsReads {
            verbose(snapshot.report, client: client)
        }
        let encoded: Data
        do {
            encoded = try snapshot.file.encoded()
        } catch {
            throw CommandFailure("cannot encode the snapshot: \(error)", code: .failure)
        }
        try OutputFile.write(encoded, to: path, what: "the snapshot")
        console.write("wrote \(path): \(summary(snapshot.state))\n", to: .output)
        return .ok
    }

    /// `2 repositories, 11 issues, 8 merge requests, 11 builds`: what the file holds.
    private func summary(_ state: ForgeState) -> String {
        func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
            "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
        }
        let repositories = state.repositories
        return
            ([
                count(repositories.count, "repository", "repositories")
            ]
            + context.registry.kinds.map { kind in
                count(
                    repositories.reduce(0) { $0 + $1.items(of: kind).count }, context.registry.noun(of: kind))
            }).joined(separator: ", ")
    }

    private func verbose(_ report: ReadPlanner.Report, client: GitbayClient) {
        var text = "reads:\n"
        for step in report.steps { text += "  \(step)\n" }
        let metrics = client.metrics
        text += "requests: \(metrics.reads) reads, \(metrics.retries) retries, "
        text += "\(metrics.rateLimitedResponses) rate-limited, waited \(metrics.totalWait.components.seconds) s\n"
        context.console.write(text, to: .error)
    }
}
