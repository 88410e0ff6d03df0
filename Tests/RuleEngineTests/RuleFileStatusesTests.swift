import Foundation
import GitbayKit
import RuleEngine
import Testing
import YAML

/// Which `gitbay-bot/rules` statuses the broken files ask for, and what they say.
@Suite struct RuleFileStatusesTests {
    private func state(tips: [String: String?]) throws -> ForgeState {
        let repositories = try tips.map { path, tip in
            var repository = RepositoryState(path: try RepositoryPath(path))
            repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(""), tip: tip)
            return repository
        }
        return ForgeState(now: Date(timeIntervalSince1970: 0), me: "bot", repositories: repositories)
    }

    private func broken(_ message: String, in path: String) throws -> (RepositoryPath, RuleSet) {
        let location = SourceLocation(file: "\(path):.gitbay/bot.yml", line: 4, column: 12)
        return (
            try RepositoryPath(path), RuleSet(rules: [], diagnostics: [.error(message, at: location)], sources: [:])
        )
    }

    @Test func aBrokenFileWithAKnownTipAsksForOneFailingStatusThere() throws {
        var rules = RepositoryRules()
        let (lib, set) = try broken("no rule 'x'", in: "krz/lib")
        rules.sets[lib] = set
        let (app, other) = try broken("unknown field", in: "krz/app")
        rules.sets[app] = other
        let wanted = RuleFileStatuses.wanted(rules, state: try state(tips: ["krz/lib": sha("1"), "krz/app": nil]))
        // krz/app's tip is not known: nothing can be said on it.
        #expect(
            wanted.map(\.argv) == [
                [
                    "status", "set", "krz/lib", sha("1"), "--context", "gitbay-bot/rules", "--state", "failure",
                    "--description", "4:12: no rule 'x'; gitbay-bot check --repository krz/lib --read-bases",
                ]
            ])
    }

    @Test func aLongMessageIsCutSoTheCommandStillFits() throws {
        var rules = RepositoryRules()
        let (lib, set) = try broken(String(repeating: "word ", count: 60), in: "krz/lib")
        rules.sets[lib] = set
        let description = try #require(
            RuleFileStatuses.wanted(rules, state: try state(tips: ["krz/lib": sha("1")])).first?.description)
        #expect(description.count == 140)
        #expect(description.hasSuffix("…; gitbay-bot check --repository krz/lib --read-bases"))
    }

    private func sha(_ digit: Character) -> String { String(repeating: digit, count: 40) }
}
