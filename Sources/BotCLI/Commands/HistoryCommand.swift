import ArgumentParsing
import Foundation
import RuleEngine
import StateDatabase

/// `gitbay-bot history [ITEM]`: what the bot did, tried or left unfinished, and why.
///
/// `explain` says what the bot would do now; this says what it did, from the state database
/// alone, so it needs no server and no token.
struct HistoryCommand: BotCommand {
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
            SharedOptions.config.spec, SharedOptions.url, SharedOptions.stateDir.spec,
            rule.spec, since.spec, limit.spec, format.spec,
        ],
        positionals: [item]
    )

    static let rule = TypedOption<String>(.value("rule", valueName: "name", help: "Only this rule's actions."))
    static let since = TypedOption<Since>(
        .value(
            "since", valueName: "when",
            help: "Only actions since this long ago (7d, 12h) or this time (2026-11-29 or RFC 3339)."),
        expected: "a duration (7d, 12h) or a time (2026-11-29 or RFC 3339)",
        parse: { text in
            DurationLiteral.seconds(text).map(Since.ago) ?? TimeLiteral.date(text).map(Since.time)
        })
    static let limit = TypedOption<Int>(
        .value("limit", valueName: "n", help: "At most this many actions, the newest."),
        expected: "a whole number of 1 or more", parse: { Int($0).flatMap { $0 > 0 ? $0 : nil } })
    static let format = TypedOption<OutputFormat>(
        .value(
            "format", valueName: "format", help: "How to print the history.",
            allowedValues: ["text", "json", "jsonl"], defaultValue: "text"),
        expected: "text, json or jsonl", parse: OutputFormat.init(rawValue:))
    static let item = PositionalSpec(
        "item", help: "Only this item: owner/name#12, owner/name!12 or owner/name/builds/4213.", optional: true)

    /// Where `--since` starts: a span back from now, or a time.
    enum Since: Sendable {
        case ago(TimeInterval)
        case time(Date)
    }

    let context: CommandContext
    let rule: String?
    let item: ItemReference?
    let since: Since?
    let limit: Int?
    let format: OutputFormat
    /// The configuration's keys the command line gives; the server's URL only names its state
    /// database here: history sends nothing.
    let settings: CommandLineSettings

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.context = context
        rule = try Self.rule.value(in: invocation)
        item = try invocation.positional(Self.item.name).map { text throws(CommandFailure) in try context.item(text) }
        since = try Self.since.value(in: invocation)
        limit = try Self.limit.value(in: invocation)
        format = try Self.format.defaultedValue(in: invocation)
        settings = try CommandLineSettings(invocation, use: [])
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = context.console
        let query = query(now: Date())
        let settings = try ConfigurationLoader.settings(
            self.settings, environment: context.environment, console: console, registry: context.registry)
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
        switch format {
        case .json, .markdown:
            console.write(
                PlanJSON.encode(HistoryDocument(server: settings.url.absoluteString, entries: entries)), to: .output)
        case .jsonl:
            let encoder = PlanJSON.encoder(pretty: false)
            for entry in entries {
                let line = (try? encoder.encode(entry)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                console.write(line + "\n", to: .output)
            }
        case .text:
            console.write(HistoryRenderer.text(entries), to: .output)
        }
        return .ok
    }

    /// The filters of the command line, with `--since` as a time before `now`.
    private func query(now: Date) -> HistoryQuery {
        var query = HistoryQuery(rule: rule)
        query.item = item?.description
        switch since {
        case .ago(let seconds): query.since = now.addingTimeInterval(-seconds)
        case .time(let date): query.since = date
        case nil: break
        }
        if let limit { query.limit = limit }
        return query
    }
}
