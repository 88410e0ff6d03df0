import Foundation
import GitbayTestSupport
import Testing

/// `check` refuses every configuration `run` would, at the line and column of the mistake with
/// exit 78, and `run` stops on it the same way before reading anything: a CI job that checks a
/// change is the place to find out, not the scheduled run after it.
@Suite struct CheckRefusesWhatRunRefusesTests {
    /// The shipped rules, valid, for the commands to read beside a configuration.
    static let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path

    /// A configuration file holding `text`, in a folder of its own.
    static func configuration(_ text: String) throws -> String {
        let folder = Scratch.url("check-refuses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("gitbay-bot.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The client refuses these before sending anything; `check` said nothing of them.
    static let refused = [
        (
            "ftp://gitbay.example",
            "'ftp://gitbay.example' is not a gitbay server: the bot speaks https:// (or http:// to this machine), "
                + "not ftp://"
        ),
        (
            "http://gitbay.example:8080",
            "'http://gitbay.example:8080' is plain http:// to gitbay.example, which would send the token "
                + "unencrypted; write https://, or pass --allow-insecure-http"
        ),
    ]

    @Test(arguments: refused)
    func checkRefusesAServerTheClientWouldRefuseAtItsPlace(url: String, message: String) async throws {
        let path = try Self.configuration("scope: owner:acme\nurl: \(url)\n")
        let result = await runBot(["check", "--config", path, Self.rules])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(
            result.error == """
                \(path):2:6: error: \(message)
                url: \(url)
                     ^
                error: the configuration \(path) has 1 error; nothing was read or done

                """)
    }

    /// Before, `run` built its client, which refused the URL with exit 1 and no place.
    @Test(arguments: refused)
    func runStopsOnSuchAServerWithExit78AtItsPlace(url: String, message: String) async throws {
        let path = try Self.configuration("scope: owner:acme\nurl: \(url)\n")
        let result = await runBot(["run", "--config", path, Self.rules], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("\(path):2:6: error: \(message)\n"))
        #expect(result.error.hasSuffix("error: the configuration \(path) has 1 error; nothing was read or done\n"))
    }

    /// A `rules:` entry that holds no rules is a mistake of the file, at the entry.
    ///
    /// It stopped `run` once the rules were read, without a place, after the file's other
    /// mistakes were mended; now it is said with them. A path on the command line replaces
    /// `rules:`, so it is not read then.
    @Test(arguments: ["check", "run"])
    func aRulesEntryThatHoldsNoRulesIsAnErrorAtItsPlace(_ command: String) async throws {
        let path = try Self.configuration("rules: [triage, missing, empty]\nmax_actions: -1\n")
        let folder = (path as NSString).deletingLastPathComponent
        for name in ["triage", "empty"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(name)", withIntermediateDirectories: true)
        }
        try "scope: owner:acme\nrules:\n  - name: nudge\n    on: issues\n    when: [idle > 30d]\n    do: [close]\n"
            .write(toFile: "\(folder)/triage/nudge.yml", atomically: true, encoding: .utf8)
        let result = await runBot([command, "--config", path], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(
            result.error == """
                \(path):1:17: error: no such file or folder: \(folder)/missing
                rules: [triage, missing, empty]
                                ^
                \(path):1:26: error: \(folder)/empty/ holds no rule files (*.yml, *.yaml); nothing to \(command)
                rules: [triage, missing, empty]
                                         ^
                \(path):2:14: error: max_actions must be 0 or more
                max_actions: -1
                             ^
                error: the configuration \(path) has 3 errors; nothing was read or done

                """)
        let replaced = await runBot(
            [command, "--config", path, "\(folder)/triage"], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(replaced.code == 78)
        #expect(replaced.error.contains("max_actions must be 0 or more"))
        #expect(!replaced.error.contains("missing"))
    }

    /// `rules: []` reads no rule, so a scheduled run would succeed doing nothing: an error at the
    /// list, as for a folder without rule files; a path on the command line replaces it.
    @Test(arguments: ["check", "run"])
    func anEmptyRulesListIsAnErrorAtItsPlace(_ command: String) async throws {
        let path = try Self.configuration("rules: []\n")
        let result = await runBot([command, "--config", path], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(result.code == 78)
        #expect(
            result.error.hasPrefix(
                "\(path):1:8: error: 'rules' lists no file or folder, so \(command) would read no rule and do "
                    + "nothing; list your rules, or leave 'rules' out to read rules/\n"), "\(result.error)")
        let replaced = await runBot(["check", "--config", path, Self.rules], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(replaced.code == 0, "\(replaced.error)")
    }

    /// Plain http:// is what `run` takes: to this machine, or to another with the opt-in, which
    /// `check` takes too; `history` sends no token, so the URL only names its state database.
    @Test func plainHTTPPassesWhereRunWouldTakeIt() async throws {
        let loopback = try Self.configuration("url: http://127.0.0.1:8080\n")
        let local = await runBot(["check", "--config", loopback, Self.rules])
        #expect(local.code == 0)
        #expect(local.error == "")
        let remote = try Self.configuration("url: http://gitbay.example:8080\n")
        let optedIn = await runBot(["check", "--config", remote, "--allow-insecure-http", Self.rules])
        #expect(optedIn.code == 0)
        #expect(optedIn.error == "")
        let state = Scratch.url("check-refuses-state-\(UUID().uuidString)").path
        let history = await runBot(["history", "--config", remote, "--state-dir", state])
        #expect(history.code == 0)
        #expect(history.error == "note: nothing is recorded for http://gitbay.example:8080 under \(state)\n")
    }

    /// `--url` and `GITBAY_URL` are judged as `url:` is, and are usage errors (64) as a wrong
    /// command-line value is.
    @Test func aServerTheClientWouldRefuseOnTheCommandLineIsAUsageError() async {
        let commandLine = await runBot(
            ["plan", "--url", "ftp://gitbay.example", Self.rules], environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(commandLine.code == 64)
        #expect(commandLine.error == "error: --url: \(Self.refused[0].1)\n")
        let environment = await runBot(
            ["plan", Self.rules], environment: ["GITBAY_TOKEN": "gb_test", "GITBAY_URL": "http://gitbay.example:8080"])
        #expect(environment.code == 64)
        #expect(environment.error == "error: GITBAY_URL: \(Self.refused[1].1)\n")
    }

    /// A rule named through `comment_age` that no rule has stops `run` as it fails `check`:
    /// the rule comparing it would never act.
    @Test func runStopsOnARuleNameNoRuleHas() async {
        let corpus = SimulatorProcess.repositoryRoot.appendingPathComponent("Tests/BotCLITests/Corpus/invalid")
        let file = corpus.appendingPathComponent("comment-age-unknown-rule.yml").path
        let demo = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json").path
        let result = await runBot(["run", file, "--snapshot", demo])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(
            result.error.contains("\(file):13:21: error: unknown rule 'remind-autor'; did you mean 'remind-author'?"))
        #expect(result.error.hasSuffix("error: the rules have 3 errors; nothing was read or done\n"))
    }
}
