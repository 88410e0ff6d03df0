import Testing

/// The bot's help screens and usage errors, compared whole at the default width of 80 (COLUMNS unset).
///
/// They are generated from the command table, so a changed option or wording shows up here as a
/// diff a reviewer reads the way a user would see it.
@Suite struct HelpGoldenTests {
    static let rootHelp = """
        OVERVIEW: Rule-driven automation for the gitbay forge.

        Exit codes: 0 done or nothing to do; 1 failure; 2 actions pending (plan
        --detailed-exitcode); 3 incomplete (a guard, a limit, or some actions failed);
        64 usage; 69 the server cannot be reached; 74 a file or the state database
        cannot be written; 75 rate-limited or busy; 78 invalid rules; 129, 130, 143
        stopped by SIGHUP, SIGINT, SIGTERM.

        USAGE: gitbay-bot <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          run                     Evaluate the rules and do what they say (the
                                  scheduled job).
          plan                    Show what the rules would do, without doing it.
          apply                   Apply a plan saved with 'plan -o', re-checking every
                                  entry first.
          explain                 Show why each rule does or does not act on one item.
          history                 Show what the bot did, tried or left unfinished,
                                  newest first, with the reasons.
          watch                   Act on the forge's activity as it happens: poll the
                                  feed, judge only what changed.
          check                   Check rule files and report every mistake at its line
                                  and column.
          schema                  Print a JSON Schema of the rule format, for editors.
          snapshot                Record the forge in a file for offline runs.
          test                    Run rule tests: expected plans on forge files.

          See 'gitbay-bot help <subcommand>' for detailed help.

        """

    static let checkHelp = """
        OVERVIEW: Check rule files and report every mistake at its line and column.

        Reads the configuration as every command does (gitbay-bot.yml in the working
        directory, or --config) and each rule file (a folder means its *.yml and *.yaml
        files), and checks the YAML, the configuration's keys and values (refusing
        whatever would stop 'run', such as plain http:// to another machine without
        --allow-insecure-http), the rule format, every condition against the fields its
        item kind offers and every action against the actions it offers, without
        contacting any server. Exits 0 when the configuration and the rules are valid,
        and 78 when any error was found or a folder holds no rule files. With
        --repository it checks a repository's own rules file instead (.gitbay/bot.yml
        unless files are given) as the bot takes it: each rule acting on that
        repository only, and none using an action the configuration's repository_rules:
        forbid lists; the files its extends: names are read from --base checkouts or,
        with --read-bases, the server.

        USAGE: gitbay-bot check [--format <format>] [--scope <query>] [--repository <owner/name>] [--base <owner/name=dir> ...] [--read-bases] [--url <url>] [--token-file <file>] [--config <file>] [--allow-insecure-http] [<rules> ...]

        ARGUMENTS:
          <rules>                 Rule files or folders (default: rules: in the
                                  configuration, else rules/).

        OPTIONS:
          --format <format>       How to print the result. (values: text, json;
                                  default: text)
          --scope <query>         Check as if this scope replaced every rule's own
                                  (repo: and owner: terms).
          --repository <owner/name>
                                  Check the files as that repository's own rules
                                  (default: .gitbay/bot.yml): acting there only, with
                                  the configuration's repository_rules:.
          --base <owner/name=dir> With --repository: read the files extends: names in
                                  that repository from this local checkout.
          --read-bases            With --repository: read what extends: names from the
                                  server (--url, the token) where --base gives no
                                  checkout.
          --url <url>             The gitbay server (default: $GITBAY_URL, then url:,
                                  then https://gitbay.org).
          --token-file <file>     Read the API token from this file (default:
                                  $GITBAY_TOKEN, $GITBAY_TOKEN_FILE, token_file:).
          --config <file>         Read settings from this file (default: gitbay-bot.yml
                                  in the working directory, if present).
          --allow-insecure-http   Take a plain http:// url: to a host that is not this
                                  machine, as commands given this flag do.
          --version               Show the version.
          -h, --help              Show help information.

        """

    static let schemaHelp = """
        OVERVIEW: Print a JSON Schema of the rule format, for editors.

        The schema lists every item kind, field and action the installed plugins offer,
        so an editor with a YAML language server completes and validates rules as they
        are typed.

        USAGE: gitbay-bot schema

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        """

    @Test(arguments: [
        (["--help"], rootHelp), (["help"], rootHelp), (["help", "check"], checkHelp), (["check", "--help"], checkHelp),
        (["check", "-h"], checkHelp), (["schema", "--help"], schemaHelp), (["help", "schema"], schemaHelp),
    ])
    func aHelpScreenIsPrintedWhole(_ arguments: [String], _ expected: String) async {
        let result = await runBot(arguments)
        #expect(result.code == 0)
        #expect(result.error == "")
        #expect(result.output == expected)
    }

    @Test func aMisspelledOptionSuggestsTheRightOne() async {
        let result = await runBot(["check", "--formt", "json"])
        #expect(result.code == 64)
        #expect(result.output == "")
        #expect(
            result.error == """
                Error: Unknown option '--formt'. Did you mean '--format'?
                Usage: gitbay-bot check [--format <format>] [--scope <query>] [--repository <owner/name>] [--base <owner/name=dir> ...] [--read-bases] [--url <url>] [--token-file <file>] [--config <file>] [--allow-insecure-http] [<rules> ...]
                  See 'gitbay-bot check --help' for more information.

                """)
    }

    @Test func aValueOutsideTheAllowedOnesListsThem() async {
        let result = await runBot(["check", "--format", "xml"])
        #expect(result.code == 64)
        #expect(result.output == "")
        #expect(
            result.error == """
                Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'text' and 'json'.
                Help:  --format <format>  How to print the result.
                Usage: gitbay-bot check [--format <format>] [--scope <query>] [--repository <owner/name>] [--base <owner/name=dir> ...] [--read-bases] [--url <url>] [--token-file <file>] [--config <file>] [--allow-insecure-http] [<rules> ...]
                  See 'gitbay-bot check --help' for more information.

                """)
    }

    @Test func anUnknownSubcommandIsAnUnexpectedArgument() async {
        let result = await runBot(["frobnicate"])
        #expect(result.code == 64)
        #expect(result.output == "")
        #expect(
            result.error == """
                Error: Unexpected argument 'frobnicate'
                Usage: gitbay-bot <subcommand>
                  See 'gitbay-bot --help' for more information.

                """)
    }

    @Test func aBadScopeIsAUsageError() async {
        let result = await runBot(["check", "--scope", "krz", "rules"])
        #expect(result.code == 64)
        #expect(result.output == "")
        #expect(
            result.error == """
                Error: --scope: a scope takes only repo: and owner: terms, not 'krz'
                Usage: gitbay-bot check [--format <format>] [--scope <query>] [--repository <owner/name>] [--base <owner/name=dir> ...] [--read-bases] [--url <url>] [--token-file <file>] [--config <file>] [--allow-insecure-http] [<rules> ...]
                  See 'gitbay-bot check --help' for more information.

                """)
    }
}
