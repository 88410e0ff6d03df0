import ArgumentParsing
import Testing

/// Golden tests for every help screen: whole strings, as argument-parser's own example tests compare them.
@Suite struct HelpTests {
    static let rootHelp = """
        OVERVIEW: Drive a forge from the command line.

        Reads the forge named by the FORGE_URL environment variable.

        USAGE: forge [--verbose] [--color <when>] <subcommand>

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          sync, s                 Fetch issues and merge requests.
          label                   Add or remove labels on an issue.
          report                  Summarise the state of a repository.

          See 'forge help <subcommand>' for detailed help.

        """

    static let syncHelp = """
        OVERVIEW: Fetch issues and merge requests.

        USAGE: forge sync [--verbose] [--color <when>] [--repo <owner/name> ...] [--since <date-or-duration>] [--prune|--no-prune]

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          -r, --repo <owner/name> A repository to sync (repeatable).
          --since <date-or-duration>
                                  Only fetch items updated after this date, or within
                                  this duration.
          --prune/--no-prune      Remove items deleted upstream. (default: --prune)
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let labelHelp = """
        OVERVIEW: Add or remove labels on an issue.

        USAGE: forge label [--verbose] [--color <when>] [--mode <mode>] [--dry-run] <issue> <labels> ...

        ARGUMENTS:
          <issue>                 The issue number.
          <labels>                The labels to apply.

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          --mode <mode>           How to apply the labels. (values: add, remove, set;
                                  default: add)
          -n, --dry-run           Print what would change without changing it.
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let reportHelp = """
        OVERVIEW: Summarise the state of a repository.

        USAGE: forge report [--verbose] [--color <when>] <subcommand>

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          stale (default)         List issues nobody has touched for a while.
          builds                  List builds by status.

          See 'forge help report <subcommand>' for detailed help.

        """

    static let staleHelp = """
        OVERVIEW: List issues nobody has touched for a while.

        USAGE: forge report stale [--verbose] [--color <when>] [--days <days>] [--format <format>] [<repo>]

        ARGUMENTS:
          <repo>                  The repository, as owner/name.

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          --days <days>           How many idle days make an issue stale. (default: 30)
          -f, --format <format>   The output format. (values: text, json, markdown;
                                  default: text)
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let buildsHelp = """
        OVERVIEW: List builds by status.

        USAGE: forge report builds [--verbose] [--color <when>] [--status <status> ...] --output <file>

        OPTIONS:
          -v, --verbose           Print more detail.
          --color <when>          When to use colour. (values: auto, always, never;
                                  default: auto)
          --status <status>       Only builds in this status. (values: pending,
                                  running, passed, failed, canceled, skipped)
          -o, --output <file>     Where to write the report.
          --version               Show the version.
          -h, --help              Show help information.

        """

    @Test(arguments: [[], ["-h"], ["--help"], ["help"], ["-v", "--help"]])
    func rootHelp(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.rootHelp)
    }

    @Test(arguments: [
        ["sync", "-h"], ["sync", "--help"], ["help", "sync"], ["s", "--help"], ["help", "s"], ["help", "sync", "-h"],
        ["help", "sync", "--help"], ["sync", "--repo", "a/b", "--bogus", "--help"],
    ])
    func syncHelp(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.syncHelp)
    }

    @Test(arguments: [["label", "-h"], ["label", "--help"], ["help", "label"], ["label", "-nh"]])
    func labelHelp(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.labelHelp)
    }

    @Test(arguments: [["report", "-h"], ["report", "--help"], ["help", "report"]])
    func groupHelpIsTheGroupsOwnNotItsDefaultSubcommands(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.reportHelp)
    }

    @Test(arguments: [["report", "stale", "-h"], ["report", "stale", "--help"], ["help", "report", "stale"]])
    func staleHelp(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.staleHelp)
    }

    @Test(arguments: [["report", "builds", "-h"], ["report", "builds", "--help"], ["help", "report", "builds"]])
    func buildsHelp(arguments: [String]) {
        #expect(Harness.help(arguments) == Self.buildsHelp)
    }

    @Test func narrowWidthRewrapsEveryColumn() {
        let expected = """
            OVERVIEW: Add or remove labels on an issue.

            USAGE: forge label [--verbose] [--color <when>] [--mode <mode>] [--dry-run] <issue> <labels> ...

            ARGUMENTS:
              <issue>                 The issue number.
              <labels>                The labels to apply.

            OPTIONS:
              -v, --verbose           Print more detail.
              --color <when>          When to use colour.
                                      (values: auto, always,
                                      never; default: auto)
              --mode <mode>           How to apply the
                                      labels. (values: add,
                                      remove, set; default:
                                      add)
              -n, --dry-run           Print what would change
                                      without changing it.
              --version               Show the version.
              -h, --help              Show help information.

            """
        #expect(Harness.help(["label", "--help"], width: 50) == expected)
    }

    @Test func veryNarrowWidthWrapsOverviewAndEverySection() {
        let expected = """
            OVERVIEW: Drive a forge from the
            command line.

            Reads the forge named by the FORGE_URL
            environment variable.

            USAGE: forge [--verbose] [--color <when>] <subcommand>

            OPTIONS:
              -v, --verbose           Print more
                                      detail.
              --color <when>          When to use
                                      colour.
                                      (values:
                                      auto, always,
                                      never;
                                      default: auto)
              --version               Show the
                                      version.
              -h, --help              Show help
                                      information.

            SUBCOMMANDS:
              sync, s                 Fetch issues
                                      and merge
                                      requests.
              label                   Add or remove
                                      labels on an
                                      issue.
              report                  Summarise the
                                      state of a
                                      repository.

              See 'forge help <subcommand>' for detailed help.

            """
        #expect(Harness.help(["--help"], width: 40) == expected)
    }

    @Test func commandWithoutVersionOmitsTheVersionOption() {
        let root = CommandSpec(name: "tool", abstract: "Does one thing.", positionals: [PositionalSpec("path")])
        let outcome = CommandParser.parse(["--help"], root: root)
        let expected = """
            OVERVIEW: Does one thing.

            USAGE: tool <path>

            ARGUMENTS:
              <path>

            OPTIONS:
              -h, --help              Show help information.

            """
        #expect(outcome == .exit(.help(expected)))
    }

    @Test func manyOptionsCollapseIntoAnOptionsPlaceholder() {
        let options = (1...12).map { OptionSpec.flag("flag\($0)") } + [.value("name", required: true)]
        let root = CommandSpec(name: "tool", options: options, positionals: [PositionalSpec("path")])
        guard case .exit(.help(let help)) = CommandParser.parse(["-h"], root: root) else {
            Issue.record("expected help")
            return
        }
        #expect(help.split(separator: "\n")[0] == "USAGE: tool [<options>] --name <name> <path>")
    }
}
