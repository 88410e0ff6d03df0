import ArgumentParsing
import Testing

/// How argv words become an invocation: spellings, ordering, terminators, repetition and defaults.
@Suite struct TokenRuleTests {
    @Test func separateAndAttachedValuesAreTheSame() throws {
        let separate = try Harness.invocation(["report", "stale", "--format", "json"])
        let attached = try Harness.invocation(["report", "stale", "--format=json"])
        let short = try Harness.invocation(["report", "stale", "-f", "json"])
        #expect(separate.value("format") == "json")
        #expect(attached == separate)
        #expect(short == separate)
    }

    @Test func attachedValueMayContainEqualsSigns() throws {
        #expect(try Harness.invocation(["sync", "--since=a=b"]).value("since") == "a=b")
    }

    @Test func combinedShortFlags() throws {
        let invocation = try Harness.invocation(["label", "-vn", "12", "bug"])
        #expect(invocation.flag("verbose"))
        #expect(invocation.flag("dry-run"))
    }

    @Test func combinedShortFlagsMayEndWithAValueOption() throws {
        let invocation = try Harness.invocation(["report", "builds", "-vo", "out.txt"])
        #expect(invocation.flag("verbose"))
        #expect(invocation.value("output") == "out.txt")
    }

    @Test func terminatorEndsOptions() throws {
        let invocation = try Harness.invocation(["label", "12", "--", "-5", "--mode"])
        #expect(invocation.positionals("labels") == ["-5", "--mode"])
        #expect(invocation.value("mode") == "add")
    }

    @Test func terminatorStopsSubcommandLookup() throws {
        let invocation = try Harness.invocation(["report", "--", "builds"])
        #expect(invocation.commandPath == ["forge", "report", "stale"])
        #expect(invocation.positional("repo") == "builds")
    }

    @Test func optionsMayFollowPositionals() throws {
        let invocation = try Harness.invocation(["label", "12", "bug", "--mode", "remove", "-n", "wontfix"])
        #expect(invocation.positional("issue") == "12")
        #expect(invocation.positionals("labels") == ["bug", "wontfix"])
        #expect(invocation.positionals == ["12", "bug", "wontfix"])
        #expect(invocation.value("mode") == "remove")
        #expect(invocation.flag("dry-run"))
    }

    @Test func repeatedOptionsBuildArraysInOrder() throws {
        let invocation = try Harness.invocation(["sync", "-r", "a/b", "--repo=c/d", "--repo", "e/f"])
        #expect(invocation.values("repo") == ["a/b", "c/d", "e/f"])
    }

    @Test func aSingleValueOptionGivenTwiceKeepsTheLast() throws {
        #expect(try Harness.invocation(["sync", "--since", "1d", "--since", "2d"]).values("since") == ["2d"])
    }

    @Test func inversionTakesTheLastSpellingAndDefaultsOtherwise() throws {
        #expect(try Harness.invocation(["sync"]).flag("prune"))
        #expect(try !Harness.invocation(["sync", "--no-prune"]).flag("prune"))
        #expect(try Harness.invocation(["sync", "--no-prune", "--prune"]).flag("prune"))
    }

    @Test func defaultsFillAbsentOptions() throws {
        let invocation = try Harness.invocation(["report", "stale"])
        #expect(invocation.value("days") == "30")
        #expect(invocation.value("color") == "auto")
        #expect(invocation.value("since") == nil)
        #expect(!invocation.flag("verbose"))
        #expect(invocation.positional("repo") == nil)
    }

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() throws {
        let before = try Harness.invocation(["--color", "never", "-v", "sync"])
        let after = try Harness.invocation(["sync", "--color=never", "--verbose"])
        #expect(before.commandPath == ["forge", "sync"])
        #expect(before.value("color") == "never")
        #expect(before.flag("verbose"))
        #expect(after == before)
    }

    @Test func aliasSelectsTheCommandUnderItsName() throws {
        #expect(try Harness.invocation(["s"]).commandPath == ["forge", "sync"])
    }

    @Test func groupWithADefaultRunsItWhenGivenNothing() throws {
        let invocation = try Harness.invocation(["report", "--days", "7"])
        #expect(invocation.commandPath == ["forge", "report", "stale"])
        #expect(invocation.value("days") == "7")
    }

    @Test func hiddenOptionsStillParse() throws {
        #expect(try Harness.invocation(["sync", "--trace"]).flag("trace"))
        #expect(!HelpTests.syncHelp.contains("trace"))
    }

    @Test func aValueOptionTakesTheNextWordEvenIfItNamesASubcommand() throws {
        let root = CommandSpec(
            name: "tool", options: [.value("profile", inherited: true)],
            subcommands: [CommandSpec(name: "run"), CommandSpec(name: "plan")])
        guard case .run(let invocation) = CommandParser.parse(["--profile", "plan", "run"], root: root) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(invocation.commandPath == ["tool", "run"])
        #expect(invocation.value("profile") == "plan")
    }

    @Test func aDashAloneIsAValue() throws {
        #expect(try Harness.invocation(["label", "12", "-"]).positionals("labels") == ["-"])
    }

    @Test func optionalPositionalsLeaveRoomForLaterRequiredOnes() {
        let root = CommandSpec(
            name: "copy",
            positionals: [
                PositionalSpec("from", optional: true), PositionalSpec("to"),
            ])
        guard case .run(let one) = CommandParser.parse(["b"], root: root),
            case .run(let two) = CommandParser.parse(["a", "b"], root: root)
        else {
            Issue.record("expected commands to run")
            return
        }
        #expect(one.positional("from") == nil)
        #expect(one.positional("to") == "b")
        #expect(two.positional("from") == "a")
        #expect(two.positional("to") == "b")
    }
}
