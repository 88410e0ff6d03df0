import ArgumentParsing
import GitbayClient

/// The bot's commands as data: help, usage, errors and completion scripts are generated from it.
public enum BotCommandTable {
    /// The root command.
    public static let root = CommandSpec(
        name: "gitbay-bot",
        abstract: "Rule-driven automation for the gitbay forge.",
        discussion: """
            Exit codes: 0 done or nothing to do; 1 failure; 2 actions pending (plan --detailed-exitcode); \
            3 incomplete (a guard, a limit, or some actions failed); 64 usage; 69 the server cannot be \
            reached; 74 a file or the state database cannot be written; 75 rate-limited or busy; 78 invalid \
            rules; 129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM.
            """,
        version: BotVersion.current,
        subcommands: commands.map { $0.spec }
    )

    /// Every command, in the order help lists them: the parser's table and the dispatch both come
    /// from this one list.
    static var commands: [any BotCommand.Type] {
        [
            RunCommand.self, PlanCommand.self, ApplyCommand.self, ExplainCommand.self, HistoryCommand.self,
            WatchCommand.self, CheckCommand.self, SchemaCommand.self, SnapshotCommand.self, TestCommand.self,
        ]
    }
}
