import ArgumentParsing
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayTestSupport
import RuleEngine
import Testing
import YAML

@testable import BotCLI

/// Configuration files as the commands find and read them: `--config`, `gitbay-bot.yml` in the
/// working directory, the token file, and what `check` and an offline plan take from them.
@Suite struct ConfigurationFileTests {
    @Test func aMissingExplicitConfigurationIsAUsageErrorButAMissingDefaultIsFine() async throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        let missing = folder.appendingPathComponent("nowhere.yml").path
        let result = await runBot(["plan", "--config", missing, "--snapshot", "x.json"])
        #expect(result.code == 64)
        #expect(result.error == "error: no such configuration file: \(missing)\n")
        let resolved = try ConfigurationLoader.settings(
            CommandLineSettings.parsed(["plan"], use: .sendsToken), environment: [:], console: RecordingConsole(),
            registry: BuiltinPlugins.registry, workingDirectory: folder.path)
        #expect(resolved.configurationPath == nil)
    }

    @Test func theDefaultFileIsReadFromTheWorkingDirectory() throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        try "max_actions: 3\nrules: [triage]\n".write(
            to: folder.appendingPathComponent(ConfigurationLoader.defaultName), atomically: true, encoding: .utf8)
        let resolved = try ConfigurationLoader.settings(
            CommandLineSettings.parsed(["run"], use: .sendsToken), environment: [:], console: RecordingConsole(),
            registry: BuiltinPlugins.registry, workingDirectory: folder.path)
        #expect(resolved.maxActions == 3)
        #expect(resolved.rules == [folder.appendingPathComponent("triage").path])
    }

    @Test func aTokenFileOthersCanReadIsWarnedAboutWithoutTheToken() throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        let path = folder.appendingPathComponent("token").path
        try "gb_secretvalue\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let console = RecordingConsole()
        let token = try TokenFile.read(path, origin: "--token-file", console: console)
        #expect(token == BearerToken("gb_secretvalue"))
        #expect(
            console.error == "warning: the token file \(path) can be read by other accounts (mode 644); "
                + "run 'chmod 600 \(path)'\n")
        #expect(!console.error.contains("gb_secretvalue"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let quiet = RecordingConsole()
        _ = try TokenFile.read(path, origin: "--token-file", console: quiet)
        #expect(quiet.error.isEmpty)
    }

    /// `check` reads the configuration as the other commands do: its `rules:` when no paths are
    /// given, its `scope:` for rules that write none, and its mistakes at their line and column
    /// with exit 78, before any rule is checked.
    @Test func checkReadsTheConfigurationItsRulesAndItsScope() async throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        let triage = folder.appendingPathComponent("triage")
        try FileManager.default.createDirectory(at: triage, withIntermediateDirectories: true)
        try "rules:\n  - name: nudge\n    on: issues\n    when: [idle > 30d]\n    do: [{comment: Still needed?}]\n"
            .write(to: triage.appendingPathComponent("nudge.yml"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("bot.yml").path
        try "rules: [triage]\nscope: owner:krz\n".write(toFile: path, atomically: true, encoding: .utf8)
        let valid = await runBot(["check", "--config", path])
        #expect(valid.code == 0)
        #expect(valid.output == "1 file, 1 rule: no problems found\n")
        #expect(valid.error == "")
        // Paths on the command line replace `rules:`, as for `run`.
        let shipped = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
        let other = await runBot(["check", "--config", path, shipped])
        #expect(other.output == "4 files, 6 rules: no problems found\n")

        try "rules: [triage]\nscope: owner:krz\nbots: [ci-bot, '@dependabot']\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let invalid = await runBot(["check", "--config", path])
        #expect(invalid.code == 78)
        #expect(invalid.output == "")
        #expect(
            invalid.error == """
                \(path):3:16: error: bots lists gitbay account names (letters, digits, '-', '_', '.'), not '@dependabot'
                bots: [ci-bot, '@dependabot']
                               ^
                error: the configuration \(path) has 1 error; nothing was read or done

                """)
        let missing = await runBot(["check", "--config", folder.appendingPathComponent("nowhere.yml").path])
        #expect(missing.code == 64)
    }

    /// Without `--config`, `check` reads `gitbay-bot.yml` in the working directory, as `run` does.
    @Test func checkReadsGitbayBotYmlInTheWorkingDirectory() async throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        try "max_action: 5\n".write(
            to: folder.appendingPathComponent(ConfigurationLoader.defaultName), atomically: true, encoding: .utf8)
        let child = try ChildProcess(
            BotProcess.executable.path, ["check"], environment: BotProcess.environment([:]), directory: folder.path)
        let end = try await child.wait(timeout: .seconds(60))
        #expect(end.status == 78)
        #expect(
            end.errorText == """
                gitbay-bot.yml:1:1: error: unknown key 'max_action'; did you mean 'max_actions'?
                max_action: 5
                ^
                error: the configuration gitbay-bot.yml has 1 error; nothing was read or done

                """)
    }

    @Test func aConfigurationDrivesAnOfflinePlan() async throws {
        let folder = try Scratch.newFolder("gitbay-bot-config")
        let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
        let demo = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json").path
        let path = folder.appendingPathComponent("bot.yml").path
        try "rules: [\(rules)]\nmax_actions: 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let limited = await runBot(["plan", "--config", path, "--snapshot", demo])
        #expect(limited.code == 0)
        #expect(limited.output.contains("2 commands pending"))
        let unlimited = await runBot(["plan", "--config", path, "--snapshot", demo, "--max-actions", "50"])
        #expect(unlimited.output.contains("11 commands pending"))
    }
}
