import ArgumentParsing
import Foundation
import RuleEngine
import StateDatabase

/// `gitbay-bot history [ITEM]`: what the bot did, tried or left unfinished, and why.
///
/// `explain` says what the bot would do now; this says what it did, from the state database
/// alone, so it needs no server and no token.
struct HistoryCommand {
    static let spec = CommandSpec(
        name: "history",
        abstract: "Show what the bot did, tried or left unfinished, newest first, with the reasons.",
        discussion: """
            Reads the state databases of the server (--url, GITBAY_URL, url:) under the state folder; \
            needs no token. Each action shows its time, run, rule, item, command, outcome and the \
            conditions that chose the item, with the values they saw. Outcomes: applied, already-done, \
            failed, unrecorded (sent, but the run ended before its result was recorded: the next run \
            re-reads the item) and not-sent (never sent: planned for an entry whose run stopped first, \
            or stopped while it waited to go out). \
            --format jsonl prints one JSON object a line, for grep and jq.
            """,
        options: [
            SharedOptions.config, SharedOptions.url, SharedOptions.stateDir,
            .value("rule", valueName: "name", help: "Only this rule's actions."),
            .value(
                "since", valueName: "when",
                help: "Only actions since this long ago (7d, 12h) or this time (2026-11-29 or RFC 3339)."),
            .value("limit", valueName: "n", help: "At most this many actions, the newest."),
            .value(
                "format", valueName: "format", help: "How to print the history.",
                allowedValues: ["text", "json", "jsonl"], defaultValue: "text"),
        ],
        positionals: [
            PositionalSpec(
                "item", help: "Only this item: owner/name#12, owner/name!12 or owner/name/builds/4213.", optional: true)
        ]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry

    func run() async throws(CommandFailure) -> BotExitCode {
        let query = try query(now: Date())
        let settings = try ConfigurationLoader.settings(
            invocation: invocation, environment: environment, console: console)
        let paths = StateLocation.databases(settings.stateDir, server: settings.url)
        var entries: [HistoryEntry] = []
        for path in paths {
            do {
                let store = try await SQLiteStateStore.opened(at: path, mode: .reading)
                let account = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                var commands: [String: String] = [:]
                for record in try await store.history(query) {
                    if commands[record.run] == nil {
                        commands[record.run] = try await store.run(id: record.run)?.command ?? ""
                    }
                    entries.append(HistoryEntry(record, command: commands[record.run], account: account))
                }
                // One account's files are closed before the next one's open, not when Dispatch drops them.
                await store.close()
            } catch {
                // A file a run made but never got to write to holds no history: nothing to show.
                if case .missing = error as? StateStoreError { continue }
                throw CommandFailure("\(error)", code: .ioError)
            }
        }
        entries.sort { $0.at > $1.at }
        if let limit = query.limit { entries = Array(entries.prefix(limit)) }
        if paths.isEmpty {
            console.write(
                "note: nothing is recorded for \(settings.url.absoluteString) under \(settings.stateDir)\n",
                to: .error)
        }
        switch invocation.value("format") {
        case "json":
            console.write(
                PlanJSON.encode(HistoryDocument(server: settings.url.absoluteString, entries: entries)), to: .output)
        case "jsonl":
            let encoder = PlanJSON.encoder(pretty: false)
            for entry in entries {
                let line = (try? encoder.encode(entry)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                console.write(line + "\n", to: .output)
            }
        default:
            console.write(HistoryRenderer.text(entries), to: .output)
        }
        return .ok
    }

    /// The filters of the command line; a wrong one is a usage error (exit 64).
    private func query(now: Date) throws(CommandFailure) -> HistoryQuery {
        var query = HistoryQuery(rule: invocation.value("rule"))
        if let text = invocation.positional("item") {
            guard let reference = registry.reference(parsing: text) else {
                throw CommandFailure(
                    "'\(text)' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213",
                    code: .usage)
            }
            query.item = reference.description
        }
        if let text = invocation.value("since") {
            if let seconds = DurationLiteral.seconds(text) {
                query.since = now.addingTimeInterval(-seconds)
            } else if let date = TimeLiteral.date(text) {
                query.since = date
            } else {
                throw CommandFailure(
                    "--since takes a duration (7d, 12h) or a time (2026-11-29 or RFC 3339), not '\(text)'",
                    code: .usage)
            }
        }
        if let text = invocation.value("limit") {
            guard let limit = Int(text), limit > 0 else {
                throw CommandFailure("--limit takes a whole number of 1 or more, not '\(text)'", code: .usage)
            }
            query.limit = limit
        }
        return query
    }
}
