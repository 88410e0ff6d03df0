import BuiltinPlugins
import Foundation
import GitbayTestSupport
import Testing
import YAML

@testable import BotCLI

private let folder = SimulatorProcess.repositoryRoot.appendingPathComponent(
    "Tests/BotCLITests/Fixtures/configuration-mistakes")

/// A `gitbay-bot.yml` with a mistake in every key is reported whole, in one run of `check`.
///
/// The first value of the wrong type used to stop the decoding, the unknown keys and the values
/// out of range waited for everything else to decode, and a `rules:` folder that is not there
/// for the rules to be read, so a new user's file with many mistakes took a round of `check`
/// per mistake or two. `Fixtures/configuration-mistakes` holds one such file and the exact
/// standard error of `check` on it.
@Suite struct ConfigurationMistakesTests {
    /// The pinned diagnostics, with the file named as `--config` names it from its folder.
    static func expected() throws -> String {
        try String(contentsOf: folder.appendingPathComponent("check.expected"), encoding: .utf8)
    }

    @Test func checkReportsEveryMistakeOfTheConfigurationInOneRun() async throws {
        let result = await runBot(["check", "--config", folder.appendingPathComponent("gitbay-bot.yml").path])
        #expect(result.code == 78)
        #expect(result.output == "")
        let error = result.error.replacingOccurrences(of: folder.path + "/", with: "")
        #expect(error == (try Self.expected()))
        #expect(error.components(separatedBy: ": error: ").count - 1 == 19)
    }

    /// `run` stops on the same mistakes, all of them, before reading anything.
    @Test func runReportsTheSameMistakesBeforeReadingAnything() async throws {
        let result = await runBot(
            ["run", "--config", folder.appendingPathComponent("gitbay-bot.yml").path],
            environment: ["GITBAY_TOKEN": "gb_test"])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(result.error.replacingOccurrences(of: folder.path + "/", with: "") == (try Self.expected()))
    }

    /// `.nan` is a YAML number, and no number of requests: `--rate-limit nan` was refused while
    /// `rate_limit: .nan` passed `check` and paced a run by it.
    @Test func aRateLimitThatIsNoNumberIsRefusedAsOnTheCommandLine() throws {
        do {
            _ = try ConfigurationLoader.decode(
                Array("rate_limit: .nan\n".utf8), file: "gitbay-bot.yml", registry: BuiltinPlugins.registry)
            Issue.record("rate_limit: .nan was accepted")
        } catch {
            #expect(
                error.description
                    == "gitbay-bot.yml:1:13: error: rate_limit is requests a minute and must be at least 1")
        }
    }
}
