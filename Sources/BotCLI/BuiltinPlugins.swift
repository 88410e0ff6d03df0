import BuildsPlugin
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine

/// The plugins that ship with the bot.
public enum BuiltinPlugins {
    /// Issues, merge requests and builds, in one registry.
    public static let registry = PluginRegistry(plugins: [IssuesPlugin(), MergeRequestsPlugin(), BuildsPlugin()])
}
