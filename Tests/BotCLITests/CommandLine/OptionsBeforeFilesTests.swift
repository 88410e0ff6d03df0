import Foundation
import GitbayTestSupport
import Testing

/// The configuration's keys given on the command line are read when the command is made, so a
/// wrong value is exit 64, with its message, before any file is read: a configuration file with
/// mistakes of its own (exit 78) or a rules folder that is not there waits for the next try.
@Suite struct OptionsBeforeFilesTests {
    /// A folder holding a `gitbay-bot.yml` with an unknown key, and no rules.
    private func folderWithBrokenConfiguration() throws -> URL {
        let folder = Scratch.url("options-before-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("max_actoins: 3\n".utf8).write(to: folder.appendingPathComponent("gitbay-bot.yml"))
        return folder
    }

    @Test(arguments: [
        (["plan", "--max-actions", "x"], "error: --max-actions takes a whole number, not 'x'"),
        (["run", "--read-budget", "0"], "error: --read-budget takes a number of requests of at least 1, not '0'"),
        (["explain", "krz/gitbay#31", "--scope", "label:"], "error: --scope: "),
        (
            ["apply", "plan.json", "--rate-limit", "0"],
            "error: --rate-limit takes a number of requests a minute, not '0'"
        ),
        (["history", "--url", "ftp://host"], "error: --url: 'ftp://host' is not a gitbay server"),
    ])
    func aWrongOptionValueIsSaidBeforeTheConfiguration(arguments: [String], message: String) async throws {
        let folder = try folderWithBrokenConfiguration()
        let result = await runBot(arguments + ["--config", folder.appendingPathComponent("gitbay-bot.yml").path])
        #expect(result.code == 64, "\(result.error)")
        #expect(result.error.hasPrefix(message), "\(result.error)")
    }
}
