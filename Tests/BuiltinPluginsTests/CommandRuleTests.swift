import BuiltinPlugins
import CommentCommands
import Foundation
import Testing
import YAML

@testable import RuleEngine

/// `rules.yml` holding `rule` (lines of a rule, under `rules:`), loaded with the built-in plugins.
private func load(_ rule: String) -> RuleSet {
    let text = "scope: repo:krz/app\nrules:\n" + rule
    return RuleSet.load(files: [(path: "rules.yml", bytes: Array(text.utf8))], registry: BuiltinPlugins.registry)
}

/// Each error as `line:column: message`.
private func errors(_ rule: String) -> [String] {
    load(rule).diagnostics.filter { $0.severity == .error }.map {
        "\($0.location.line):\($0.location.column): \($0.message)"
    }
}

/// A rule's `command:` and `allowed:`, checked like the rest of it: each mistake at its place.
@Suite struct CommandRuleTests {
    @Test func aCommandRuleCarriesItsPatternAndWhoMayGiveIt() throws {
        let loaded = load(
            """
              - name: merge-on-command
                on: merge_requests
                command: /merge [strategy:ff|merge|squash|rebase]
                allowed: [author, writers, "@release-team"]
                when: [state = open, not draft]
                do:
                  - comment: "Merging as {{ command.author }} asked, with {{ command.strategy }}."
            """)
        let rule = try #require(loaded.rules.first, "\(loaded.diagnostics)")
        let command = try #require(rule.command)
        #expect(command.pattern.usage == "/merge [strategy:ff|merge|squash|rebase]")
        #expect(command.allowed == [.author, .writers, .account("release-team")])

        let plain = try #require(
            load("  - name: label\n    on: issues\n    command: /label <labels:label>...\n    do: [close]\n").rules
                .first)
        #expect(plain.command?.allowed == [.writers], "writers only, unless the rule says")
    }

    @Test func aBadPatternIsReportedAtItsColumn() {
        #expect(
            errors("  - name: m\n    on: merge_requests\n    command: /merge [strategy:fast]\n    do: [close]\n")
                == ["5:31: a parameter's type is word, label, user, number, or choices such as ff|merge"])
    }

    @Test func aParameterNamedAuthorIsRefusedSinceTheGiverHasThatName() {
        #expect(
            errors("  - name: m\n    on: issues\n    command: /assign <author:user>\n    do: [close]\n")
                == ["5:14: a parameter may not be named 'author': {{ command.author }} is who gave the command"])
    }

    @Test func commandsAreForKindsWithCommentsAndAllowedNeedsACommand() {
        #expect(
            errors("  - name: b\n    on: builds\n    command: /retry\n    do: [cancel]\n").first?.hasPrefix(
                "5:14: a command is given in a comment, which builds have not; 'command:' is for issues") == true)
        #expect(
            errors("  - name: a\n    on: issues\n    allowed: [writers]\n    do: [close]\n")
                == ["5:14: 'allowed' says who may give a command; add 'command:' or drop it"])
    }

    /// A second rule of one kind giving a command name is refused where it gives it, naming the first.
    ///
    /// A comment belongs to one item of one kind, so both rules would answer every such command.
    /// Rules on different kinds may share a name.
    @Test func aCommandNameGivenTwiceForOneKindIsRefusedAtTheSecond() throws {
        func rules(_ secondKind: String, _ secondCommand: String = "/label <names:label>...") -> String {
            """
              - name: label-command
                on: issues
                command: /label <labels:label>...
                do: [close]
              - name: label-again
                on: \(secondKind)
                command: \(secondCommand)
                do: [close]

            """
        }
        #expect(
            errors(rules("issues"))
                == [
                    "9:14: /label is already the command of rule 'label-command' (rules.yml:5:14) for issues; "
                        + "one comment would be answered by both"
                ])
        let notes = try #require(load(rules("issues")).diagnostics.first?.notes)
        #expect(notes.map { "\($0.location.line):\($0.location.column): \($0.message)" } == ["5:14: first given here"])
        #expect(errors(rules("merge_requests")).isEmpty, "a comment on an issue is not one on a merge request")
        #expect(errors(rules("issues", "/unlabel <labels:label>...")).isEmpty)
        #expect(errors(rules("issues", "\"  /label\"")).first?.hasPrefix("9:17: /label is already") == true)
    }

    @Test func allowedTakesAuthorWritersOrAccountsAndCatchesASlip() {
        let rule = "  - name: a\n    on: issues\n    command: /close\n    allowed: [%@]\n    do: [close]\n"
        #expect(
            errors(rule.replacingOccurrences(of: "%@", with: "writer"))
                == [
                    "6:15: 'writer' reads as an account name; did you mean 'writers'? (write '@writer' for the account)"
                ])
        #expect(errors(rule.replacingOccurrences(of: "%@", with: "\"@writer\"")).isEmpty)
        #expect(
            errors(rule.replacingOccurrences(of: "%@", with: "\"a b\""))
                == ["6:15: 'a b' is not author, writers or an account name"])
    }

    @Test func templatesNameTheCommandsParametersAndNothingElse() {
        let rule =
            "  - name: a\n    on: issues\n    command: /close [reason]\n    do:\n      - comment: \"%@\"\n"
        #expect(errors(rule.replacingOccurrences(of: "%@", with: "Closed: {{ command.reason }}")).isEmpty)
        #expect(
            errors(rule.replacingOccurrences(of: "%@", with: "{{ command.why }}"))
                == ["7:22: the command /close [reason] has no parameter 'why'"])
        let uncommanded = "  - name: a\n    on: issues\n    do:\n      - comment: \"{{ command.reason }}\"\n"
        #expect(
            errors(uncommanded) == ["6:22: 'command.reason' names a command's argument; the rule has no 'command:'"])
    }

    /// `merge` takes gitbay's strategies; a command's argument may give one only when its pattern
    /// says it is one of them, so no comment can send gitbay a strategy it does not know.
    @Test func mergeTakesAStrategyAndACommandsArgumentOnlyWhenTypedToFit() throws {
        func rule(_ command: String, _ action: String) -> String {
            "  - name: m\n    on: merge_requests\n    command: \(command)\n    do:\n      - \(action)\n"
        }
        let typed = load(
            rule("/merge [strategy:ff|merge|squash|rebase]", "merge: {strategy: \"{{ command.strategy }}\"}"))
        let action = try #require(typed.rules.first?.actions.first, "\(typed.diagnostics)")
        #expect(action.name == "merge")
        #expect(
            errors(rule("/merge [strategy:squash|rebase]", "merge: {strategy: \"{{ command.strategy }}\"}")).isEmpty)
        #expect(errors(rule("/merge", "merge")).isEmpty, "no strategy: gitbay's choice")
        #expect(errors(rule("/merge", "merge: {strategy: squash}")).isEmpty)
        #expect(
            errors(rule("/merge [strategy]", "merge: {strategy: \"{{ command.strategy }}\"}"))
                == [
                    "7:27: 'strategy' takes ff|merge|squash|rebase, but the command's strategy is any word; declare it "
                        + "as [strategy:ff|merge|squash|rebase]"
                ])
        #expect(
            errors(rule("/merge [strategy:ff|octopus]", "merge: {strategy: \"{{ command.strategy }}\"}")).count == 1,
            "octopus is no strategy of gitbay's")
        #expect(
            errors(rule("/merge", "merge: {strategy: fast}")).first?.contains("'fast' is not a strategy 'merge' takes")
                == true)
    }
}
