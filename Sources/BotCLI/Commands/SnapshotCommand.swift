import ArgumentParsing
import Foundation
import GitbayClient
import GitbayPorts
import RuleEngine

/// `gitbay-bot snapshot --scope QUERY -o FILE`: records a live forge as a forge-state file, so rules
/// can be planned, explained and tested offline against exactly what the server held.
struct SnapshotCommand {
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
            .value(
                "scope", valueName: "query", help: "The repositories to record (repo: and owner: terms).",
                required: true),
            .flag("all-states", help: "Record closed issues and merged or closed merge requests too."),
            .value("output", short: "o", valueName: "file", help: "Write the forge-state file here.", required: true),
        ] + SharedOptions.connection
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry

    func run() async throws(CommandFailure) -> BotExitCode {
        let text = invocation.value("scope") ?? ""
        let scope: RuleScope
        do {
            scope = try RuleScope(parsing: text)
        } catch {
            throw CommandFailure("--scope: \(error.message)", code: .usage)
        }
        let path = invocation.value("output") ?? ""
        let client = try ForgeConnection.client(
            invocation, environment: environment, access: .readOnly, console: console)
        let reader = ForgeSnapshotReader(
            scope: scope, allStates: invocation.flag("all-states"), registry: registry)
        let snapshot: ForgeSnapshot
        do {
            snapshot = try await reader.read(reader: client, now: Date())
        } catch let error as GitbayError {
            throw CommandFailure(error, server: client.configuration.baseURL)
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
        if invocation.flag("verbose") {
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
            + registry.kinds.map { kind in
                count(
                    repositories.reduce(0) { $0 + $1.items(of: kind).count }, registry.noun(of: kind))
            }).joined(separator: ", ")
    }

    private func verbose(_ report: ReadPlanner.Report, client: GitbayClient) {
        var text = "reads:\n"
        for step in report.steps { text += "  \(step)\n" }
        let metrics = client.metrics
        text += "requests: \(metrics.reads) reads, \(metrics.retries) retries, "
        text += "\(metrics.rateLimitedResponses) rate-limited, waited \(metrics.totalWait.components.seconds) s\n"
        console.write(text, to: .error)
    }
}
