import BuildsPlugin
import IssuesPlugin
import MergeRequestsPlugin
import MilestonesPlugin
import RuleEngine

/// The plugins that ship with the bot: the one list the command line, the benchmarks, the docs
/// and the tests all take them from, so a new plugin is one line here (and its target).
public enum BuiltinPlugins {
    /// Every built-in plugin, in the order the docs list them.
    public static let all: [any BotPlugin] = [
        IssuesPlugin(), MergeRequestsPlugin(), BuildsPlugin(), MilestonesPlugin(),
    ]

    /// All of them in one registry.
    public static let registry = PluginRegistry(plugins: all)
}
