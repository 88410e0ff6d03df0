import ArgumentParsing
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayTestSupport
import RuleEngine
import Testing
import YAML

@testable import BotCLI

/// A configuration decoded from YAML text as `gitbay-bot.yml`.
private func configuration(_ text: String) throws(YAMLError) -> ConfigurationFile {
    try ConfigurationLoader.decode(Array(text.utf8), file: "gitbay-bot.yml", registry: BuiltinPlugins.registry)
}

/// Settings for `plan` with `arguments`, `environment` and the configuration `text`.
private func settings(
    _ arguments: [String] = [], environment: [String: String] = [:], file text: String = ""
) throws -> Settings {
    try Settings.resolve(
        CommandLineSettings.parsed(["plan"] + arguments), environment: environment, file: configuration(text),
        fileDirectory: "/etc/bot")
}

@Suite struct ConfigurationTests {
    @Test func theCommandLineBeatsTheEnvironmentForTheServer() throws {
        let resolved = try settings(
            ["--url", "https://cli.example"], environment: ["GITBAY_URL": "https://env.example"])
        #expect(resolved.url.absoluteString == "https://cli.example")
    }

    @Test func theEnvironmentBeatsTheFileForTheServer() throws {
        let resolved = try settings(
            environment: ["GITBAY_URL": "https://env.example"], file: "url: https://file.example")
        #expect(resolved.url.absoluteString == "https://env.example")
    }

    @Test func theFileBeatsTheDefaultServer() throws {
        #expect(try settings(file: "url: https://file.example").url.absoluteString == "https://file.example")
        #expect(try settings().url.absoluteString == Settings.defaultURL)
    }

    @Test func theTokenComesFromTheFirstSourceThatHasOne() throws {
        let file = "token_file: secrets/token"
        let environment = ["GITBAY_TOKEN": "gb_env", "GITBAY_TOKEN_FILE": "/run/token"]
        #expect(
            try settings(["--token-file", "/cli/token"], environment: environment, file: file).token
                == .file(path: "/cli/token", origin: "--token-file"))
        #expect(try settings(environment: environment, file: file).token == .environment(BearerToken("gb_env")))
        #expect(
            try settings(environment: ["GITBAY_TOKEN_FILE": "/run/token"], file: file).token
                == .file(path: "/run/token", origin: "GITBAY_TOKEN_FILE"))
        #expect(
            try settings(file: file).token
                == .file(path: "/etc/bot/secrets/token", origin: "token_file at gitbay-bot.yml:1:13"))
        #expect(try settings().token == .missing)
    }

    @Test func numbersComeFromTheCommandLineThenTheFileThenTheDefaults() throws {
        let file = """
            max_actions: 7
            rate_limit: 60
            tripwire:
              share: 0.5
              floor: 3
            """
        let fromFile = try settings(file: file)
        #expect(fromFile.maxActions == 7)
        #expect(fromFile.rateLimit == 60)
        #expect(fromFile.tripwireShare == 0.5)
        #expect(fromFile.tripwireFloor == 3)
        let fromCommandLine = try settings(
            ["--max-actions", "9", "--rate-limit", "30", "--tripwire-share", "0.1", "--tripwire-floor", "20"],
            file: file)
        #expect(fromCommandLine.evaluationOptions.maxActions == 9)
        #expect(fromCommandLine.rateLimit == 30)
        #expect(fromCommandLine.evaluationOptions.tripwireShare == 0.1)
        #expect(fromCommandLine.evaluationOptions.tripwireFloor == 20)
        let defaults = try settings()
        #expect(defaults.maxActions == Settings.defaultMaxActions)
        #expect(defaults.rateLimit == Settings.defaultRateLimit)
        #expect(defaults.tripwireShare == 0.25)
        #expect(defaults.tripwireFloor == 10)
    }

    @Test func pathsInTheFileAreReadFromItsFolderAndTheCommandLineReplacesThem() throws {
        let file = """
            rules: [rules/triage.yml, /srv/shared-rules]
            journal: state/journal.jsonl
            state_dir: state
            scope: owner:krz
            """
        let fromFile = try settings(file: file)
        #expect(fromFile.rules == ["/etc/bot/rules/triage.yml", "/srv/shared-rules"])
        #expect(fromFile.journal == "/etc/bot/state/journal.jsonl")
        #expect(fromFile.stateDir == "/etc/bot/state")
        #expect(fromFile.scope?.description == "owner:krz")
        let run = try Settings.resolve(
            CommandLineSettings.parsed([
                "run", "other.yml", "--journal", "j.jsonl", "--state-dir", "s", "--scope", "repo:a/b",
            ]),
            environment: [:], file: configuration(file), fileDirectory: "/etc/bot")
        #expect(run.rules == ["other.yml"])
        #expect(run.journal == "j.jsonl")
        #expect(run.stateDir == "s")
        #expect(run.scope?.description == "repo:a/b")
        #expect(try settings(environment: ["XDG_STATE_HOME": "/s"]).journal == "/s/gitbay-bot/journal.jsonl")
        #expect(try settings(environment: ["XDG_STATE_HOME": "/s"]).stateDir == "/s/gitbay-bot")
        #expect(try settings(environment: ["HOME": "/home/b"]).stateDir == "/home/b/.local/state/gitbay-bot")
        #expect(try settings().retention == 90 * 86_400)
        #expect(try settings(file: "state_retention: 30d").retention == 30 * 86_400)
        #expect(try settings().rules == Settings.defaultRules)
    }

    @Test func aWrongCommandLineValueIsAUsageError() throws {
        #expect(throws: CommandFailure.self) { try settings(["--tripwire-share", "2"]) }
        do {
            _ = try settings(["--max-actions", "many"])
            Issue.record("--max-actions many was accepted")
        } catch let failure as CommandFailure {
            #expect(failure.code == .usage)
            #expect(failure.message == "--max-actions takes a whole number, not 'many'")
        }
    }

    @Test func anUnknownKeySuggestsTheKeyMeant() throws {
        do {
            _ = try configuration("url: https://gitbay.example\nmax_action: 5\n")
            Issue.record("an unknown key was accepted")
        } catch {
            let text = error.rendered(sources: ["gitbay-bot.yml": Array("url: x\nmax_action: 5\n".utf8)])
            #expect(text.hasPrefix("gitbay-bot.yml:2:1: error: unknown key 'max_action'"))
            #expect(text.contains("did you mean 'max_actions'?"))
        }
    }

    @Test func aBadConfigurationStopsTheRunWithItsDiagnosticsAndExit78() async throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        let path = folder.appendingPathComponent("bot.yml").path
        try "url: https://gitbay.example\ntripwire:\n  share: lots\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let demo = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json").path
        let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
        let result = await runBot(["plan", rules, "--snapshot", demo, "--config", path])
        #expect(result.code == 78)
        #expect(result.output.isEmpty)
        #expect(
            result.error == """
                \(path):3:10: error: expected a number, found 'lots'
                  share: lots
                         ^
                error: the configuration \(path) has 1 error; nothing was read or done

                """)
    }

    @Test func aValueOutOfRangeIsReportedWhereItIsWritten() throws {
        do {
            _ = try configuration("max_actions: 10\ntripwire: {share: 1.5}\n")
            Issue.record("a share of 1.5 was accepted")
        } catch {
            #expect(error.description == "gitbay-bot.yml:2:19: error: tripwire.share is a share of items, from 0 to 1")
        }
    }

    @Test(arguments: ["1h", "0d", "soon", "-5d"])
    func aRetentionUnderADayIsReportedWhereItIsWritten(value: String) throws {
        do {
            _ = try configuration("max_actions: 10\nstate_retention: \(value)\n")
            Issue.record("state_retention: \(value) was accepted")
        } catch {
            #expect(
                error.description
                    == "gitbay-bot.yml:2:18: error: state_retention is a duration of a day or more, such as 90d")
        }
    }

    @Test(arguments: ["soon", "-1h", "6 hours"])
    func aSweepPeriodThatIsNoDurationIsReportedWhereItIsWritten(value: String) throws {
        do {
            _ = try configuration("max_actions: 10\nsweep_period: \(value)\n")
            Issue.record("sweep_period: \(value) was accepted")
        } catch {
            #expect(
                error.description
                    == "gitbay-bot.yml:2:15: error: sweep_period is a duration such as 6h, or 0 to read every repository each run"
            )
        }
    }

    @Test func aReadBudgetUnderOneIsReportedWhereItIsWritten() throws {
        do {
            _ = try configuration("max_actions: 10\nread_budget: 0\n")
            Issue.record("read_budget: 0 was accepted")
        } catch {
            #expect(
                error.description == "gitbay-bot.yml:2:14: error: read_budget is a number of requests of at least 1")
        }
    }

    /// The sweep's period and the read budget: the command line over the file over the default.
    @Test func theSweepPeriodAndTheReadBudgetComeFromTheCommandLineTheFileOrTheDefault() throws {
        #expect(try settings().sweepPeriod == 6 * 3600)
        #expect(try settings().readBudget == nil)
        #expect(try settings(file: "sweep_period: 2h\nread_budget: 900\n").sweepPeriod == 7200)
        #expect(try settings(file: "sweep_period: 0\n").sweepPeriod == 0)
        #expect(try settings(file: "read_budget: 900\n").readBudget == 900)
        let both = try settings(
            ["--sweep-period", "30m", "--read-budget", "50"], file: "sweep_period: 2h\nread_budget: 900\n")
        #expect(both.sweepPeriod == 1800)
        #expect(both.readBudget == 50)
        #expect(throws: CommandFailure.self) { try settings(["--read-budget", "0"]) }
        #expect(throws: CommandFailure.self) { try settings(["--sweep-period", "soon"]) }
    }

    @Test func botsAreReadFromTheFile() throws {
        #expect(try settings().bots.isEmpty)
        #expect(try settings(file: "bots:\n  - ci-bot\n  - deps.bot\n").bots == ["ci-bot", "deps.bot"])
    }

    @Test(arguments: ["'@ci-bot'", "'ci bot'", "''"])
    func aBotThatIsNoAccountNameIsReportedWhereItIsWritten(value: String) throws {
        do {
            _ = try configuration("max_actions: 10\nbots:\n  - ci-bot\n  - \(value)\n")
            Issue.record("bots: \(value) was accepted")
        } catch {
            #expect(error.description.hasPrefix("gitbay-bot.yml:4:5: error: bots lists gitbay account names"))
        }
    }

    /// `writers:` and `command_window:`, which command rules read: values and their errors.
    @Test func writersAndTheCommandWindowComeFromTheFile() throws {
        #expect(try settings().writers.isEmpty)
        #expect(try settings().commandWindow == 3 * 86_400)
        let file = try settings(file: "writers:\n  - alice\n  - dana\ncommand_window: 12h\n")
        #expect(file.writers == ["alice", "dana"])
        #expect(file.commandWindow == 12 * 3600)
        #expect(file.evaluationOptions.commandWindow == 12 * 3600)
    }

    @Test(arguments: ["soon", "30s", "0", "-3d"])
    func aCommandWindowUnderAMinuteIsReportedWhereItIsWritten(value: String) throws {
        do {
            _ = try configuration("max_actions: 10\ncommand_window: \(value)\n")
            Issue.record("command_window: \(value) was accepted")
        } catch {
            #expect(
                error.description
                    == "gitbay-bot.yml:2:17: error: command_window is a duration of a minute or more, such as 3d")
        }
    }

    @Test func aWriterThatIsNoAccountNameIsReportedWhereItIsWritten() throws {
        do {
            _ = try configuration("writers:\n  - alice\n  - '@dana'\n")
            Issue.record("writers: '@dana' was accepted")
        } catch {
            #expect(error.description.hasPrefix("gitbay-bot.yml:3:5: error: writers lists gitbay account names"))
        }
    }

    @Test func theAnswerCapComesFromTheFileInBytesOrBinaryUnits() throws {
        #expect(try settings().maxResponseSize == .mebibytes(32))
        #expect(try settings(file: "max_response_size: 8MiB").maxResponseSize == .mebibytes(8))
        #expect(try settings(file: "max_response_size: 65536").maxResponseSize == .kibibytes(64))
    }

    @Test(arguments: ["32", "lots", "32MB", "-1"])
    func anUnusableAnswerCapIsReportedWhereItIsWritten(value: String) throws {
        do {
            _ = try configuration("max_actions: 10\nmax_response_size: \(value)\n")
            Issue.record("max_response_size: \(value) was accepted")
        } catch {
            #expect(
                error.description
                    == "gitbay-bot.yml:2:20: error: max_response_size is a size of at least 1 KiB, in bytes or in KiB, "
                    + "MiB or GiB such as 32MiB, not '\(value)'")
        }
    }
}
