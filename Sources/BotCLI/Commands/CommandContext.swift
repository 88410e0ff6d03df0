import ArgumentParsing
import RuleEngine
import Timekeeping
import Watch

/// What every command runs with besides its options: where it prints, its environment, the
/// plugins, the control that stops it, and the monotonic clock `watch` keeps its schedule by.
struct CommandContext: Sendable {
    var environment: [String: String]
    var console: any Console
    var registry: PluginRegistry
    var control: CommandControl
    var clock: any MonotonicClock

    /// The item `text` names (owner/name#12, owner/name!12, owner/name/builds/4213), as the
    /// plugins read it; anything else is a usage failure that shows the three forms.
    func item(_ text: String) throws(CommandFailure) -> ItemReference {
        guard let reference = registry.reference(parsing: text) else {
            throw CommandFailure(
                "'\(text)' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213", code: .usage)
        }
        return reference
    }

    /// The terminal's width for the text a command wraps: `COLUMNS`, else 80.
    var width: Int {
        environment["COLUMNS"].flatMap { Int($0) } ?? 80
    }
}
