import Foundation
import GitbayTestSupport
import Testing

/// `check --repository OWNER/NAME` checks a repository's own rules file as the bot would take it:
/// acting on that repository only, with the actions the operator's `repository_rules.forbid`
/// leaves, every mistake at its line and column (exit 78), so a maintainer finds out in CI.
@Suite struct CheckRepositoryRulesTests {
    /// A folder holding `.gitbay/bot.yml` with `rules`, and `gitbay-bot.yml` with `configuration`
    /// when one is given.
    private func checkout(rules: String, configuration: String? = nil) throws -> URL {
        let folder = Scratch.url("check-repository-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".gitbay"), withIntermediateDirectories: true)
        try rules.write(to: folder.appendingPathComponent(".gitbay/bot.yml"), atomically: true, encoding: .utf8)
        if let configuration {
            try configuration.write(
                to: folder.appendingPathComponent("gitbay-bot.yml"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    private static let rules = """
        rules:
          - name: stale
            on: issues
            when: [state = open, quiet > 30d]
            do: [{add-label: stale}]
          - name: land
            on: merge_requests
            scope: owner:krz
            do: [merge]

        """

    @Test func aMaintainersCheckoutIsCheckedAtItsDefaultPathWithTheOperatorsForbids() async throws {
        let folder = try checkout(rules: Self.rules, configuration: "repository_rules:\n  forbid: [merge]\n")
        let check = try ChildProcess(
            BotProcess.executable.path, ["check", "--repository", "krz/app"], environment: ["PATH": "/usr/bin:/bin"],
            directory: folder.path)
        let ended = try await check.wait(timeout: .seconds(60))
        #expect(ended.status == 78)
        #expect(
            ended.errorText == """
                .gitbay/bot.yml:8:12: error: a repository's own rules act on krz/app only, and 'owner:krz' names \
                others (leave 'scope:' out, or write 'repo:krz/app')
                    scope: owner:krz
                           ^
                .gitbay/bot.yml:9:10: error: the operator forbids 'merge' in repository rules \
                (repository_rules: forbid: in gitbay-bot.yml)
                    do: [merge]
                         ^
                1 file: 2 errors

                """)
    }

    @Test func aValidFileWithoutScopeActsOnItsRepository() async throws {
        let folder = try checkout(
            rules: "rules:\n  - name: stale\n    on: issues\n    when: [quiet > 30d]\n    do: [{add-label: stale}]\n")
        let path = folder.appendingPathComponent(".gitbay/bot.yml").path
        let result = await runBot(["check", "--repository", "krz/app", path, "--format", "json"])
        #expect(result.code == 0, "\(result.error)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 0)
        #expect(report["rules"] as? [String] == ["krz/app:stale"], "named as plans and markers name it")
    }

    /// `check --repository krz/app` of the checkout's file with `configuration` as its `gitbay-bot.yml`.
    private func check(configuration: String) async throws -> (code: Int32, output: String, error: String) {
        let folder = try checkout(rules: Self.rules, configuration: configuration)
        return await runBot([
            "check", "--repository", "krz/app", "--config", folder.appendingPathComponent("gitbay-bot.yml").path,
            folder.appendingPathComponent(".gitbay/bot.yml").path,
        ])
    }

    @Test func aForbiddenNameThatIsNoActionIsAnErrorOfTheConfiguration() async throws {
        let result = try await check(configuration: "repository_rules:\n  forbid: [merge, clsoe]\n")
        #expect(result.code == 78)
        #expect(
            result.error.contains(
                "gitbay-bot.yml:2:19: error: repository_rules.forbid lists actions, and no action is called 'clsoe'; "
                    + "did you mean 'close'?"))
    }

    @Test func aShareOrALimitBelowOneIsAnErrorOfTheConfiguration() async throws {
        let result = try await check(configuration: "repository_rules:\n  max_actions: 0\n  limit: -2\n")
        #expect(result.code == 78)
        #expect(
            result.error.contains(
                "gitbay-bot.yml:2:16: error: repository_rules.max_actions is at least 1, not 0 (to keep repositories' "
                    + "rules from acting, write read: false)"), "\(result.error)")
        #expect(result.error.contains("gitbay-bot.yml:3:10: error: repository_rules.limit is at least 1, not -2"))
    }

    /// A file extending a shared base in another repository reads it from the checkout `--base`
    /// names, and its `disable:` and its own rules apply on top.
    @Test func aBaseIsReadFromTheCheckoutBaseNames() async throws {
        let folder = try checkout(
            rules: "extends: krz/.gitbay:base.yml\ndisable: [close-stale]\n",
            configuration: "repository_rules:\n  forbid: [merge]\n")
        let shared = folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try """
        rules:
          - name: mark-stale
            on: issues
            when: [quiet > 60d]
            do: [{add-label: stale}]
          - name: close-stale
            on: issues
            when: [labels has stale]
            do: [close]

        """.write(to: shared.appendingPathComponent("base.yml"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent(".gitbay/bot.yml").path
        let result = await runBot(["check", "--repository", "krz/app", "--base", "krz/.gitbay=\(shared.path)", file])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output == "1 file, 1 rule: no problems found\n")
        let unread = await runBot(["check", "--repository", "krz/app", file])
        #expect(unread.code == 78)
        #expect(
            unread.error.hasPrefix(
                "\(file):1:10: error: extends: cannot read krz/.gitbay:base.yml: check reads it from a local "
                    + "checkout (--base krz/.gitbay=DIR) or, with --read-bases, from the server\n"))
    }

    /// A folder given with --repository holding more than one rule file is a usage error: the
    /// repository's rules are one file.
    @Test func aFolderOfSeveralFilesIsAUsageError() async throws {
        let folder = try checkout(rules: Self.rules)
        try Self.rules.write(
            to: folder.appendingPathComponent(".gitbay/more.yml"), atomically: true, encoding: .utf8)
        let gitbay = folder.appendingPathComponent(".gitbay").path
        let result = await runBot(["check", "--repository", "krz/app", gitbay])
        #expect(result.code == 64)
        #expect(result.error == "error: --repository checks one file, the repository's own, and \(gitbay) holds 2\n")
    }

    /// `plan` stops on it as `check` does, before reading anything: the typo would let `clsoe`'s
    /// action through in whatever reads repository rules.
    @Test func planStopsOnTheSameMistake() async throws {
        let folder = try checkout(rules: Self.rules, configuration: "repository_rules:\n  forbid: [clsoe]\n")
        let demo = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json").path
        let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
        let result = await runBot([
            "plan", "--snapshot", demo, "--config", folder.appendingPathComponent("gitbay-bot.yml").path, rules,
        ])
        #expect(result.code == 78)
        #expect(result.output == "")
        #expect(result.error.contains("gitbay-bot.yml:2:12: error: repository_rules.forbid lists actions"))
    }

    @Test(arguments: [
        (["--repository", "krz"], "error: --repository takes a repository, owner/name, not 'krz'\n"),
        (
            ["--base", "krz/.gitbay=."],
            "error: --base and --read-bases read what a repository's file extends: give --repository too\n"
        ),
        (["--repository", "krz/app", "--base", "krz"], "error: --base takes owner/name=DIR, not 'krz'\n"),
        (["--repository", "krz/app", "a.yml", "b.yml"], "error: --repository checks one file, the repository's own\n"),
        (
            ["--repository", "krz/app", "--scope", "owner:krz"],
            "error: --scope and --repository cannot go together: a repository's own rules act on it only\n"
        ),
    ])
    func wrongOptionsAreUsageErrors(arguments: [String], message: String) async {
        let result = await runBot(["check"] + arguments)
        #expect(result.code == 64)
        #expect(result.error == message)
    }
}
