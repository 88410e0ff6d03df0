import BuiltinPlugins
import RuleEngine
import Testing
import YAML

/// A rule file that holds no rules is most likely a slip (rules left out, or written under
/// another key), so it is said, though it stops nothing.
@Suite struct EmptyRuleFileTests {
    @Test func aFileWithAnEmptyRuleListIsWarnedOfAtTheList() {
        let set = RuleSet.load(
            files: [("a.yml", Array("scope: owner:krz\nrules: []\n".utf8))], registry: Fixtures.registry)
        #expect(
            set.diagnostics.map(\.description) == [
                "a.yml:2:8: warning: this file holds no rules, so reading it changes nothing"
            ])
        #expect(!set.hasErrors)
    }

    @Test func aFileWithRulesIsNotWarnedOf() {
        let rules = "scope: owner:krz\nrules:\n  - name: x\n    on: issues\n    when: [state = open]\n    do: [close]\n"
        #expect(RuleSet.load(files: [("a.yml", Array(rules.utf8))], registry: Fixtures.registry).diagnostics.isEmpty)
    }
}
