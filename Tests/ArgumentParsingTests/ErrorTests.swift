import ArgumentParsing
import Testing

/// Golden tests for every usage error: the whole stderr text, stream and exit code 64.
@Suite struct ErrorTests {
    static let rootUsage = """
        Usage: forge [--verbose] [--color <when>] <subcommand>
          See 'forge --help' for more information.

        """

    static let syncUsage = """
        Usage: forge sync [--verbose] [--color <when>] [--repo <owner/name> ...] [--since <date-or-duration>] [--prune|--no-prune]
          See 'forge sync --help' for more information.

        """

    static let labelUsage = """
        Usage: forge label [--verbose] [--color <when>] [--mode <mode>] [--dry-run] <issue> <labels> ...
          See 'forge label --help' for more information.

        """

    static let buildsUsage = """
        Usage: forge report builds [--verbose] [--color <when>] [--status <status> ...] --output <file>
          See 'forge report builds --help' for more information.

        """

    @Test func unknownOptionSuggestsTheClosestLongOption() {
        #expect(
            Harness.usageError(["--versoin"])
                == "Error: Unknown option '--versoin'. Did you mean '--version'?\n" + Self.rootUsage)
        #expect(
            Harness.usageError(["sync", "--no-prun"])
                == "Error: Unknown option '--no-prun'. Did you mean '--no-prune'?\n" + Self.syncUsage)
    }

    @Test func unknownOptionFarFromEveryNameGetsNoSuggestion() {
        #expect(Harness.usageError(["sync", "--zzzzzzzz"]) == "Error: Unknown option '--zzzzzzzz'\n" + Self.syncUsage)
    }

    @Test func unknownShortOptionIsNeverSuggested() {
        #expect(Harness.usageError(["sync", "-x"]) == "Error: Unknown option '-x'\n" + Self.syncUsage)
        #expect(Harness.usageError(["sync", "-vx"]) == "Error: Unknown option '-x'\n" + Self.syncUsage)
    }

    @Test func optionsOfAnotherCommandAreUnknown() {
        #expect(
            Harness.usageError(["sync", "--mode", "add"])
                == "Error: Unknown option '--mode'\n" + Self.syncUsage)
    }

    @Test func missingValueAtTheEndOrBeforeAnotherOption() {
        let expected =
            "Error: Missing value for '--repo <owner/name>'\n"
            + "Help:  --repo <owner/name>  A repository to sync (repeatable).\n" + Self.syncUsage
        #expect(Harness.usageError(["sync", "--repo"]) == expected)
        #expect(Harness.usageError(["sync", "--repo", "--no-prune"]) == expected)
        #expect(Harness.usageError(["sync", "--repo", "--", "a/b"]) == expected)
    }

    @Test func missingValueQuotesTheShortSpellingTyped() {
        #expect(
            Harness.usageError(["sync", "-r"])
                == "Error: Missing value for '-r <owner/name>'\n"
                + "Help:  -r <owner/name>  A repository to sync (repeatable).\n" + Self.syncUsage)
    }

    @Test func flagGivenAValue() {
        #expect(
            Harness.usageError(["sync", "--prune=yes"])
                == "Error: The option '--prune' does not take any value, but 'yes' was specified.\n" + Self.syncUsage)
        #expect(
            Harness.usageError(["--verbose=1"])
                == "Error: The option '--verbose' does not take any value, but '1' was specified.\n" + Self.rootUsage)
    }

    @Test func invalidValueListsTheAllowedOnes() {
        #expect(
            Harness.usageError(["label", "--mode", "toggle", "12", "bug"])
                == "Error: The value 'toggle' is invalid for '--mode <mode>'. Please provide one of 'add', 'remove' or 'set'.\n"
                + "Help:  --mode <mode>  How to apply the labels.\n" + Self.labelUsage)
    }

    @Test func invalidValueOfAnInheritedOption() {
        #expect(
            Harness.usageError(["label", "--color=pink", "12"])
                == "Error: The value 'pink' is invalid for '--color <when>'. Please provide one of 'auto', 'always' or 'never'.\n"
                + "Help:  --color <when>  When to use colour.\n" + Self.labelUsage)
    }

    @Test func invalidValueAmongTwoAllowedOnesUsesAnd() {
        let root = CommandSpec(name: "tool", options: [.value("side", allowedValues: ["left", "right"])])
        let outcome = CommandParser.parse(["--side", "up"], root: root)
        let expected = UsageError(
            message: "The value 'up' is invalid for '--side <side>'. Please provide one of 'left' and 'right'.",
            usage: "tool [--side <side>]", commandPath: "tool")
        #expect(outcome == .exit(.usageError(expected)))
    }

    @Test func invalidValueAmongSixOrMoreAllowedOnesIsABulletList() {
        #expect(
            Harness.usageError(["report", "builds", "-o", "out.txt", "--status", "lost"])
                == """
                Error: The value 'lost' is invalid for '--status <status>'. Please provide one of the following:
                  - pending
                  - running
                  - passed
                  - failed
                  - canceled
                  - skipped
                Help:  --status <status>  Only builds in this status.

                """ + Self.buildsUsage)
    }

    @Test func unexpectedArgument() {
        #expect(Harness.usageError(["sync", "extra"]) == "Error: Unexpected argument 'extra'\n" + Self.syncUsage)
    }

    @Test func severalUnexpectedArguments() {
        #expect(
            Harness.usageError(["sync", "one", "two"])
                == "Error: 2 unexpected arguments: 'one', 'two'\n" + Self.syncUsage)
    }

    @Test func unknownSubcommandIsAnUnexpectedArgument() {
        #expect(Harness.usageError(["fetch"]) == "Error: Unexpected argument 'fetch'\n" + Self.rootUsage)
    }

    @Test func aMistypedSubcommandGetsADidYouMean() {
        #expect(
            Harness.usageError(["synk"]) == "Error: Unexpected argument 'synk'. Did you mean 'sync'?\n" + Self.rootUsage
        )
        #expect(
            Harness.usageError(["help", "lable"])
                == "Error: Unexpected argument 'lable'. Did you mean 'label'?\n" + Self.rootUsage)
    }

    @Test func unknownSubcommandOfAGroupWithADefaultIsTheDefaultsArgument() throws {
        let invocation = try Harness.invocation(["report", "octo/repo"])
        #expect(invocation.commandPath == ["forge", "report", "stale"])
        #expect(invocation.positional("repo") == "octo/repo")
    }

    @Test func missingExpectedPositional() {
        #expect(
            Harness.usageError(["label"])
                == "Error: Missing expected argument '<issue>'\nHelp:  <issue>  The issue number.\n" + Self.labelUsage)
    }

    @Test func missingRepeatingPositional() {
        #expect(
            Harness.usageError(["label", "12"])
                == "Error: Missing expected argument '<labels> ...'\nHelp:  <labels>  The labels to apply.\n"
                + Self.labelUsage)
    }

    @Test func missingRequiredOption() {
        #expect(
            Harness.usageError(["report", "builds"])
                == "Error: Missing expected argument '--output <file>'\n"
                + "Help:  --output <file>  Where to write the report.\n" + Self.buildsUsage)
    }

    @Test func groupGivenOptionsButNoSubcommand() {
        #expect(Harness.usageError(["--verbose"]) == "Error: Missing required subcommand.\n" + Self.rootUsage)
        #expect(
            Harness.usageError(["--color", "never", "-v"]) == "Error: Missing required subcommand.\n" + Self.rootUsage)
    }

    @Test func helpForAnUnknownSubcommand() {
        #expect(Harness.usageError(["help", "fetch"]) == "Error: Unexpected argument 'fetch'\n" + Self.rootUsage)
    }

    @Test func unsupportedCompletionShell() {
        #expect(
            Harness.usageError(["--generate-completion-script", "tcsh"])
                == """
                Error: Can't generate completion scripts for 'tcsh'.
                Please use --generate-completion-script=<shell> with one of:
                    bash zsh fish

                """ + Self.rootUsage)
    }

    @Test func completionShellCannotBeDetected() {
        guard let message = Harness.message(["--generate-completion-script"], shell: "/bin/ksh") else {
            Issue.record("expected an error")
            return
        }
        #expect(message.exitCode == 64)
        #expect(
            message.text
                == """
                Error: Can't autodetect a supported shell.
                Please use --generate-completion-script=<shell> with one of:
                    bash zsh fish

                """ + Self.rootUsage)
    }

    @Test func validationErrorFromACommandUsesItsUsage() throws {
        let invocation = try Harness.invocation(["label", "12", "bug"])
        let message = MessageInfo(.usageError(invocation.usageError("Issue 12 is locked.")))
        #expect(
            message == MessageInfo(text: "Error: Issue 12 is locked.\n" + Self.labelUsage, stream: .error, exitCode: 64)
        )
    }
}
