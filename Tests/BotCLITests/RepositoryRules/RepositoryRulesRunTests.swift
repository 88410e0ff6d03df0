import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// `run` and `plan` read each repository's own rules file and act with its rules on that
/// repository alone, beside the operator's; a broken file stops its repository's rules only.
@Suite struct RepositoryRulesRunTests {
    /// What the operator's rule and krz/app's `stale` plan on the two issues.
    private static let bothRulesOnAppTheOperatorsOnLib = [
        "issue label krz/app 1 --add old", "issue label krz/app 1 --add stale", "issue label krz/lib 1 --add old",
    ]

    private func commands(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("+ ") }.map { String($0.dropFirst(2)) }.sorted()
    }

    @Test func aRepositorysRulesActOnItAloneBesideTheOperatorsAndAQuietRunReadsNoFile() async throws {
        try await withRepositoryRulesForge { bot, _ in
            let plan = await bot(["plan", "--verbose"])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(
                commands(plan.output) == Self.bothRulesOnAppTheOperatorsOnLib, "\(plan.output)")
            #expect(plan.output.contains("krz/app:stale"), "the rule goes by its repository's name")
            #expect(plan.error.contains("rules files: repo tree .gitbay (2 requests)"), "\(plan.error)")
            #expect(
                plan.error.contains("rules files: repo cat of the changed (1 request)"),
                "\(plan.error)")
            // A repository's rule can be let past the tripwire by its name, though the operator's
            // files do not hold it.
            let forced = await bot(["plan", "--force-rule", "krz/app:stale"])
            #expect(forced.code == 0, "\(forced.error)")
            // Nothing moved either default branch: the copies stand, and no file is looked at.
            let again = await bot(["plan", "--verbose"])
            #expect(commands(again.output) == commands(plan.output))
            #expect(again.error.contains("rules files: repo tree .gitbay (0 requests)"), "\(again.error)")
        }
    }

    /// A merge is in the feed: the run after it looks at the repository's file again, reads the
    /// new one, and acts with it.
    @Test func theRunAfterAMergeThatChangesTheFileActsWithTheNewRules() async throws {
        let changed =
            "rules:\n  - name: dusty\n    on: issues\n    when: [state = open, quiet > 30d]\n"
            + "    do: [{add-label: dusty}]\n"
        try await withRepositoryRulesForge(merging: changed) { bot, simulator in
            let before = await bot(["plan"])
            #expect(commands(before.output).contains("issue label krz/app 1 --add stale"), "\(before.output)")
            let merged = try await simulator.write(["mr", "merge", "krz/app", "1"])
            #expect(merged == 200)
            let after = await bot(["plan", "--verbose"])
            #expect(after.code == 0, "\(after.error)")
            #expect(
                commands(after.output) == [
                    "issue label krz/app 1 --add dusty", "issue label krz/app 1 --add old",
                    "issue label krz/lib 1 --add old",
                ], "\(after.output)")
            #expect(after.error.contains("rules files: repo tree .gitbay (1 request)"), "\(after.error)")
            #expect(
                after.error.contains("rules files: repo cat of the changed (1 request)"),
                "\(after.error)")
        }
    }

    /// A run sets a failing `gitbay-bot/rules` status on the tip that holds the broken file, once.
    @Test func aRunTellsTheBrokenFilesMaintainersWithAStatusOnTheTipOnce() async throws {
        let lib = "rules:\n  - name: close-all\n    on: issues\n    scope: repo:krz/app\n    do: [close]\n"
        try await withRepositoryRulesForge(lib: lib) { bot, simulator in
            let first = await bot(["run"])
            #expect(first.code == 0, "\(first.error)")
            #expect(
                first.error.contains("status: gitbay-bot/rules failure on krz/lib 1111111: 4:12: "), "\(first.error)")
            let statuses = try await simulator.client(access: .readOnly).send(
                StatusListCommand(repository: try RepositoryPath("krz/lib"), sha: sha("1")))
            let status = try #require(statuses.statuses.first { $0.context == "gitbay-bot/rules" })
            #expect(status.state == .failure)
            #expect(
                status.description.hasPrefix("4:12: a repository's own rules act on krz/lib only"),
                "\(status.description)")
            #expect(status.description.hasSuffix("; gitbay-bot check --repository krz/lib --read-bases"))
            #expect(status.description.count <= 140)
            // The next run finds it standing, and writes nothing at all.
            let writes = try await simulator.stats()["writes"] as? Int
            let second = await bot(["run"])
            #expect(second.code == 0, "\(second.error)")
            #expect(!second.error.contains("status:"), "\(second.error)")
            #expect(try await simulator.stats()["writes"] as? Int == writes)
        }
    }

    /// `snapshot` keeps what it read of each file, and a plan of the snapshot takes the
    /// repository's rules as the run does, offline; `read: false` leaves them out there too.
    @Test func aSnapshotKeepsTheFilesAndAnOfflinePlanUsesThem() async throws {
        let lib = "rules:\n  - name: close-all\n    on: issues\n    scope: repo:krz/app\n    do: [close]\n"
        let snapshot = Scratch.url("repository-rules-snapshot-\(UUID().uuidString).json").path
        try await withRepositoryRulesForge(lib: lib) { _, simulator in
            let taken = await runBot(
                ["snapshot", "--scope", "owner:krz", "-o", snapshot, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(taken.code == 0, "\(taken.error)")
        }
        let text = try String(contentsOfFile: snapshot, encoding: .utf8)
        #expect(text.contains("\"rule_files\""), "\(text)")
        let rules = Scratch.url("repository-rules-offline-\(UUID().uuidString).yml")
        try operatorRules.write(to: rules, atomically: true, encoding: .utf8)
        let offline = await runBot(["plan", rules.path, "--snapshot", snapshot])
        #expect(offline.code == 0, "\(offline.error)")
        #expect(commands(offline.output) == Self.bothRulesOnAppTheOperatorsOnLib, "\(offline.output)")
        #expect(offline.output.contains("note: krz/lib's own rules are not used until its file is mended"))
        let explained = await runBot(["explain", "krz/app#1", rules.path, "--snapshot", snapshot])
        #expect(explained.output.contains("krz/app:stale"), "\(explained.output)")
        let configuration = Scratch.url("no-repository-rules-\(UUID().uuidString).yml")
        try "repository_rules:\n  read: false\n".write(to: configuration, atomically: true, encoding: .utf8)
        let without = await runBot(["plan", rules.path, "--snapshot", snapshot, "--config", configuration.path])
        #expect(commands(without.output) == ["issue label krz/app 1 --add old", "issue label krz/lib 1 --add old"])
    }

    /// `explain` reads the item's repository's file and shows its rules by their names, online
    /// and from a snapshot.
    @Test func explainShowsTheRepositorysRulesOnItsItems() async throws {
        try await withRepositoryRulesForge { bot, _ in
            let explained = await bot(["explain", "krz/app#1"])
            #expect(explained.code == 0, "\(explained.error)")
            #expect(explained.output.contains("krz/app:stale"), "\(explained.output)")
            let other = await bot(["explain", "krz/lib#1"])
            #expect(!other.output.contains("krz/app:stale"), "\(other.output)")
        }
    }

    @Test func anOperatorWhoSaysReadFalseGetsNoRepositorysRulesAndNoRead() async throws {
        let configuration = Scratch.url("no-repository-rules-\(UUID().uuidString).yml")
        try "repository_rules:\n  read: false\n".write(to: configuration, atomically: true, encoding: .utf8)
        try await withRepositoryRulesForge { bot, _ in
            let plan = await bot(["plan", "--verbose", "--config", configuration.path])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(commands(plan.output) == ["issue label krz/app 1 --add old", "issue label krz/lib 1 --add old"])
            #expect(!plan.error.contains("rules files"), "\(plan.error)")
        }
    }

    @Test func aBrokenFileStopsItsRepositorysRulesOnlyAndThePlanSaysWhereAndHow() async throws {
        let lib = """
            rules:
              - name: close-all
                on: issues
                scope: repo:krz/app
                when: [state = open]
                do: [close]

            """
        try await withRepositoryRulesForge(lib: lib) { bot, _ in
            let plan = await bot(["plan"])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(
                commands(plan.output) == Self.bothRulesOnAppTheOperatorsOnLib, "\(plan.output)")
            #expect(
                plan.output.contains(
                    "note: krz/lib's own rules are not used until its file is mended: krz/lib:.gitbay/bot.yml:4:12: "
                        + "error: a repository's own rules act on krz/lib only, and 'repo:krz/app' names others"),
                "\(plan.output)")
            #expect(plan.output.contains("(gitbay-bot check --repository krz/lib --read-bases)"))
        }
    }

    /// The journey: a rule in krz/app's file that names krz/lib's scope is refused, with a
    /// failing status at its line and column, while krz/app's other rules keep working; a rule that
    /// counts from the refused rule's notices waits with it, so nothing acts on a notice never sent.
    @Test func aRuleNamingAnotherScopeIsRefusedAloneAndItsOtherRulesAct() async throws {
        let app =
            appRules
                + """
                  - name: reach
                    on: issues
                    scope: repo:krz/lib
                    when: [state = open]
                    do: [{comment: "ping"}]
                  - name: after-reach
                    on: issues
                    when: [comment_age.reach > 1d]
                    do: [close]

                """
        try await withRepositoryRulesForge(app: app) { bot, _ in
            let plan = await bot(["plan"])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(commands(plan.output) == Self.bothRulesOnAppTheOperatorsOnLib, "\(plan.output)")
            #expect(
                plan.output.contains(
                    "note: krz/app's rules file has errors; the rules they concern wait until it is mended, and "
                        + "its other rules act: krz/app:.gitbay/bot.yml:8:12: error: a repository's own rules act on "
                        + "krz/app only"), "\(plan.output)")
            let run = await bot(["run"])
            #expect(run.code == 0, "\(run.error)")
            #expect(
                run.error.contains(
                    "status: gitbay-bot/rules failure on krz/app 1111111: 8:12: a repository's own rules act on krz/app"
                ),
                "\(run.error)")
        }
    }

    /// One repository's own rules send at most their share of a run's commands (`repository_rules:
    /// max_actions:`); the rest wait, and the operator's rules and the other repositories' go on.
    @Test func aRepositorysRulesSendAtMostTheirShare() async throws {
        let app =
            appRules + "  - name: dusty\n    on: issues\n    when: [state = open, quiet > 30d]\n"
            + "    do: [{add-label: dusty}]\n"
        let configuration = Scratch.url("share-\(UUID().uuidString).yml")
        try "repository_rules:\n  max_actions: 1\n".write(to: configuration, atomically: true, encoding: .utf8)
        try await withRepositoryRulesForge(app: app) { bot, _ in
            let plan = await bot(["plan", "--config", configuration.path])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(
                commands(plan.output) == [
                    "issue label krz/app 1 --add old", "issue label krz/app 1 --add stale",
                    "issue label krz/lib 1 --add old",
                ], "\(plan.output)")
            #expect(
                plan.output.contains(
                    "krz/app's own rules: their share of 1 commands a run reached; 1 more commands left for the next runs"
                ),
                "\(plan.output)")
            #expect(plan.output.contains("the share of krz/app's own rules, 1 commands a run, reached"))
            let run = await bot(["run", "--config", configuration.path])
            #expect(run.code == 3, "a run a guard held back is incomplete: \(run.error)")
        }
    }

    /// With `merge` forbidden by the operator, krz/app's rule using it is an error, and nothing is merged.
    ///
    /// A failing status says so at the action, and the operator's rules go on. Without the
    /// operator's word the same file merges the open request.
    @Test func aForbiddenMergeIsAnErrorAndNothingIsMerged() async throws {
        let app = appRules + "  - name: land\n    on: merge_requests\n    when: [state = open]\n    do: [merge]\n"
        let configuration = Scratch.url("forbid-\(UUID().uuidString).yml")
        try "repository_rules:\n  forbid: [merge]\n".write(to: configuration, atomically: true, encoding: .utf8)
        try await withRepositoryRulesForge(app: app, merging: app) { bot, simulator in
            let run = await bot(["run", "--config", configuration.path])
            #expect(run.code == 0, "\(run.error)")
            #expect(
                run.error.contains(
                    "status: gitbay-bot/rules failure on krz/app 1111111: 9:10: the operator forbids 'merge'"),
                "\(run.error)")
            #expect(run.output.contains("issue label krz/app 1 --add old"), "\(run.output)")
            let client = try simulator.client(access: .readOnly)
            let request = try await client.send(
                MergeRequestShowCommand(repository: try RepositoryPath("krz/app"), number: 1))
            #expect(request.state == .open)
        }
        try await withRepositoryRulesForge(app: app, merging: app) { bot, simulator in
            let run = await bot(["run"])
            #expect(run.code == 0, "\(run.error)")
            let client = try simulator.client(access: .readOnly)
            let request = try await client.send(
                MergeRequestShowCommand(repository: try RepositoryPath("krz/app"), number: 1))
            #expect(request.state == .merged)
        }
    }
}
