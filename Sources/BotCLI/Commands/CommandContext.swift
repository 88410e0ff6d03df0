import ArgumentParsing
import RuleEngine

/// What every command runs with besides its options: where it prints, its environment, the
/// plugins, and the control that stops it.
struct CommandContext: Sendable {
    var environment: [String: String]
    var console: any Console
    var registry: PluginRegistry
    var control: CommandControl

    /// The terminal's width for the text a command wraps: `COLUMNS`, else 80.
    var width: Int {
        environment["COLUMNS"].flatMap { Int($0) } ?? 80
    }
}
