import Testing

@testable import CommentCommands

/// A rule's `command:` pattern, read as a usage line; each mistake named at its character.
@Suite struct CommandPatternTests {
    @Test func aUsageLineReadsAsItsNameAndTypedParameters() throws {
        let merge = try CommandPattern(parsing: "/merge [strategy: ff|merge|squash|rebase]")
        #expect(merge.name == "merge")
        #expect(
            merge.parameters == [
                CommandParameter(
                    name: "strategy", type: .oneOf(["ff", "merge", "squash", "rebase"]), isOptional: true,
                    isRepeated: false)
            ])
        #expect(merge.usage == "/merge [strategy:ff|merge|squash|rebase]")

        let label = try CommandPattern(parsing: "  /label <labels: label>...")
        #expect(
            label.parameters == [CommandParameter(name: "labels", type: .label, isOptional: false, isRepeated: true)])
        #expect(label.usage == "/label <labels:label>...")

        let untyped = try CommandPattern(parsing: "/hold [reason]...")
        #expect(untyped.parameters.first?.type == .word)
        #expect(untyped.usage == "/hold [reason]...")
        #expect(try CommandPattern(parsing: "/close").parameters.isEmpty)
        #expect(try CommandPattern(parsing: "/assign < users : user >...").parameters.first?.type == .user)
    }

    @Test(arguments: [
        ("merge", 0, "a command starts with /"),
        ("/Merge", 1, "a command's name is a lower-case letter"),
        ("/merge<x>", 6, "put a space between"),
        ("/merge strategy", 7, "a parameter is <name> (required) or [name] (optional)"),
        ("/merge [strategy: fast]", 18, "a parameter's type is word, label, user, number, or choices"),
        ("/merge [strategy: ff|]", 18, "a parameter's type is"),
        ("/merge [strategy", 16, "expected ] to close [strategy"),
        ("/label <a> <a>", 12, "a is already a parameter of /label"),
        ("/label <a>... <b>", 14, "nothing can follow <a>..., which takes every argument left"),
        ("/label [a] <b>", 11, "the required <b> cannot follow the optional [a]"),
        ("/label <9lives>", 8, "a parameter's name is a lower-case letter"),
    ])
    func aMistakeIsNamedAtItsCharacter(_ pattern: String, _ offset: Int, _ message: String) {
        #expect(throws: CommandPatternError.self) { try CommandPattern(parsing: pattern) }
        do {
            _ = try CommandPattern(parsing: pattern)
        } catch {
            #expect(error.offset == offset, "\(pattern): \(error.message)")
            #expect(error.message.contains(message), "\(pattern): \(error.message)")
        }
    }

    @Test func argumentsAreFittedToTheirTypesAndAMisfitSaysWhyWithTheUsage() throws {
        let merge = try CommandPattern(parsing: "/merge [strategy: ff|merge|squash|rebase]")
        func fit(_ pattern: CommandPattern, _ arguments: [String]) -> Result<CommandArguments, CommandArgumentProblem> {
            pattern.arguments(of: CommentCommand(name: pattern.name, arguments: arguments, line: 1, text: ""))
        }
        #expect(try fit(merge, []).get()["strategy"] == "")
        #expect(try fit(merge, ["SQUASH"]).get()["strategy"] == "squash")
        #expect(
            fit(merge, ["fast"]).failure?.description
                == "strategy: fast is not one of ff, merge, squash, rebase; usage: /merge [strategy:ff|merge|squash|rebase]"
        )
        #expect(
            fit(merge, ["ff", "now"]).failure?.description.hasPrefix("/merge takes no more than that, not now") == true)

        let label = try CommandPattern(parsing: "/label <labels: label>...")
        #expect(try fit(label, ["bug", "good first issue"]).get().values["labels"] == ["bug", "good first issue"])
        #expect(fit(label, []).failure?.description == "<labels> is missing; usage: /label <labels:label>...")
        #expect(fit(label, [String(repeating: "x", count: 51)]).failure?.description.contains("1 to 50") == true)

        let assign = try CommandPattern(parsing: "/assign [users: user]...")
        #expect(try fit(assign, ["@alice", "bob"]).get().values["users"] == ["alice", "bob"])
        #expect(try fit(assign, []).get().values["users"] == [])
        #expect(fit(assign, ["@"]).failure?.description.contains("@ is not an account name") == true)
        #expect(fit(assign, ["a;rm"]).failure != nil, "only what gitbay lets people register")

        let number = try CommandPattern(parsing: "/close-by <by: number>")
        #expect(try fit(number, ["12"]).get()["by"] == "12")
        #expect(fit(number, ["-1"]).failure != nil)
        #expect(fit(number, ["x"]).failure != nil)
    }

    /// A label starting with `-` is refused with the usage line, before anything is sent.
    ///
    /// gitbay reads an argument starting with `--` as a flag (`parseFlags`, internal/control/flags.go),
    /// and `issue label --add` takes the next argument verbatim: `/label --remove bug` made a label
    /// named `--remove`.
    @Test(arguments: ["--remove", "-bug", "-", "--"])
    func aLabelStartingWithADashIsRefusedWithTheUsage(_ argument: String) throws {
        let label = try CommandPattern(parsing: "/label <labels: label>...")
        let command = CommentCommand(name: "label", arguments: [argument, "bug"], line: 1, text: "")
        #expect(
            label.arguments(of: command).failure?.description
                == "labels: \(argument) is not a label: a label does not start with -; usage: /label <labels:label>...")
        let inside = CommentCommand(name: "label", arguments: ["needs-review", "x-y"], line: 1, text: "")
        #expect(try label.arguments(of: inside).get().values["labels"] == ["needs-review", "x-y"])
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
