import ArgumentParsing
import Testing

/// The table checker: the sample table is sound, and each kind of mistake is named.
@Suite struct DeclarationCheckTests {
    @Test func sampleTableIsSound() {
        #expect(DeclarationCheck.problems(in: SampleTool.root) == [])
    }

    @Test func everyKindOfMistakeIsReported() {
        let root = CommandSpec(
            name: "tool",
            options: [.flag("verbose", short: "v", inherited: true)],
            subcommands: [
                CommandSpec(
                    name: "run",
                    options: [
                        .flag("verbose"), .flag("velocity", short: "v"),
                        .value("mode", allowedValues: ["a", "b"], defaultValue: "c"),
                        OptionSpec(name: "tag", kind: .repeatableValue, defaultValue: "x"),
                    ],
                    positionals: [PositionalSpec("files", repeating: true), PositionalSpec("target")]
                ),
                CommandSpec(
                    name: "group", aliases: ["run"], positionals: [PositionalSpec("x")],
                    subcommands: [CommandSpec(name: "leaf")], defaultSubcommand: "missing"),
            ]
        )
        #expect(
            DeclarationCheck.problems(in: root) == [
                "tool: subcommand name 'run' is used more than once",
                "tool run: default 'c' of '--mode' is not an allowed value",
                "tool run: only single-value options take a default ('--tag')",
                "tool run: option '--verbose' is declared more than once",
                "tool run: option '-v' is declared more than once",
                "tool run: repeating argument '<files>' must come last",
                "tool group: a command with subcommands cannot take positional arguments",
                "tool group: default subcommand 'missing' is not one of its subcommands",
            ])
    }
}
