import ArgumentParsing
import RuleEngine

/// `gitbay-bot schema`: the JSON Schema of the rule format, for editors.
struct SchemaCommand: BotCommand {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print a JSON Schema of the rule format, for editors.",
        discussion: """
            The schema lists every item kind, field and action the installed plugins offer, so an \
            editor with a YAML language server completes and validates rules as they are typed.
            """
    )

    let console: any Console
    let registry: PluginRegistry

    init(_ invocation: Invocation, context: CommandContext) {
        console = context.console
        registry = context.registry
    }

    func run() -> BotExitCode {
        console.write(RuleSchema.json(registry: registry), to: .output)
        return .ok
    }
}
