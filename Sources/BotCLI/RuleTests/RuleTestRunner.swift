import Foundation
import GitbayKit
import RuleEngine
import Suggestions
import YAML

/// Runs one rule test: reads the test file, its forge-state file and its rules, plans offline and
/// compares the plan's pending entries with the expected ones.
///
/// Every problem with the test itself (a bad key, an unreadable forge, an unknown rule or action, a
/// rule error) is an `invalid` outcome with located diagnostics rather than a failure, so a broken
/// test is never mistaken for a regression in the rules.
struct RuleTestRunner: Sendable {
    let registry: PluginRegistry

    func run(path: String) -> RuleTestOutcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .invalid(["\(path): error: cannot read the test file"])
        }
        let bytes = [UInt8](data)
        let sources = [path: bytes]
        let test: RuleTestFile
        do {
            test = try YAMLDecoder().decode(RuleTestFile.self, from: bytes, file: path)
        } catch {
            return .invalid(error.diagnostics.map { $0.rendered(sources: sources) })
        }
        let directory = (path as NSString).deletingLastPathComponent
        var diagnostics: [Diagnostic] = []
        let state = forgeState(test, directory: directory, diagnostics: &diagnostics)
        var scope: RuleScope?
        if let text = test.scope {
            do {
                scope = try RuleScope(parsing: text.value)
            } catch {
                diagnostics.append(.error(error.message, at: text.location(ofScalarOffset: error.span.start)))
            }
        }
        diagnostics += ConfigurationFile.problems(ofBots: test.bots ?? [])
        diagnostics += ConfigurationFile.problems(ofBots: test.writers ?? [], key: "writers")
        var files: [(path: String, bytes: [UInt8])] = []
        for entry in test.rules {
            do {
                files += try RuleSet.files(at: [Self.resolve(entry.value, in: directory)])
            } catch {
                diagnostics.append(.error("\(error)", at: entry.location))
            }
        }
        guard diagnostics.isEmpty, let state else {
            return .invalid(diagnostics.sorted { $0.location < $1.location }.map { $0.rendered(sources: sources) })
        }
        let ruleSet = RuleSet.load(files: files, registry: registry, scopeOverride: scope)
        if ruleSet.hasErrors {
            return .invalid(ruleSet.diagnostics.map { $0.rendered(sources: ruleSet.sources) })
        }
        let expected = expectations(test, rules: ruleSet.rules, diagnostics: &diagnostics)
        guard diagnostics.isEmpty else {
            return .invalid(diagnostics.map { $0.rendered(sources: sources) })
        }
        let plan = Evaluator(registry: registry, options: EvaluationOptions()).plan(
            rules: ruleSet.rules, state: state, source: "snapshot:\(test.forge.value)")
        let difference = PlanDifference(expected: expected, planned: RuleTestEntry.pending(in: plan))
        return difference.isEmpty ? .passed : .failed(difference)
    }

    /// The forge to plan against, at the test's `now`; `nil` after adding a diagnostic.
    private func forgeState(
        _ test: RuleTestFile, directory: String, diagnostics: inout [Diagnostic]
    ) -> ForgeState? {
        let forgePath = Self.resolve(test.forge.value, in: directory)
        var now: Date?
        if let text = test.now {
            now = TimeLiteral.date(text.value)
            if now == nil {
                diagnostics.append(
                    .error("now: takes 2026-11-29 or an RFC 3339 time, not '\(text.value)'", at: text.location))
            }
        }
        guard let data = FileManager.default.contents(atPath: forgePath) else {
            diagnostics.append(.error("cannot read the forge-state file \(forgePath)", at: test.forge.location))
            return nil
        }
        do {
            var state = try ForgeStateFile.load(from: data, registry: registry).forgeState()
            if let now { state.now = now }
            state.automation = Set(test.bots?.map(\.value) ?? [])
            state = state.writers(Set(test.writers?.map(\.value) ?? []), because: "the test's writers: decide")
            return state
        } catch {
            diagnostics.append(.error(error.message(about: forgePath), at: test.forge.location))
            return nil
        }
    }

    /// The expected entries, checked against the rules: each names a rule, an item of the rule's
    /// kind and actions that kind offers, and no rule and item twice.
    private func expectations(
        _ test: RuleTestFile, rules: [Rule], diagnostics: inout [Diagnostic]
    ) -> [RuleTestEntry] {
        let byName = Dictionary(rules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: [String: SourceLocation] = [:]
        var entries: [RuleTestEntry] = []
        for expectation in test.expect {
            let name = expectation.rule.value
            guard let rule = byName[name] else {
                let hint = Suggestion.closest(to: name, among: byName.keys).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(.error("no rule is named '\(name)'\(hint)", at: expectation.rule.location))
                continue
            }
            guard let item = registry.reference(parsing: expectation.item.value) else {
                diagnostics.append(
                    .error(
                        "'\(expectation.item.value)' names no item; write owner/name#12, owner/name!12 or "
                            + "owner/name/builds/4213", at: expectation.item.location))
                continue
            }
            guard item.kind == rule.kind else {
                diagnostics.append(
                    .error(
                        "\(name) acts on \(rule.kind.rawValue), but \(item) is a \(registry.noun(of: item.kind))",
                        at: expectation.item.location))
                continue
            }
            if expectation.actions.isEmpty {
                diagnostics.append(
                    .error(
                        "list the pending actions; an entry without any is not in the plan",
                        at: expectation.item.location))
            }
            let offered = registry.actions(for: rule.kind).map(\.name)
            for action in expectation.actions where registry.action(action.value, for: rule.kind) == nil {
                let hint = Suggestion.closest(to: action.value, among: offered).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(
                    .error(
                        "\(rule.kind.rawValue) have no action '\(action.value)'\(hint)", at: action.location))
            }
            let key = "\(name) \(item)"
            if let first = seen[key] {
                diagnostics.append(
                    .error(
                        "\(name) on \(item) is expected twice", at: expectation.rule.location,
                        notes: [.note("first expected here", at: first)]))
            }
            seen[key] = seen[key] ?? expectation.rule.location
            entries.append(RuleTestEntry(rule: name, item: item.description, actions: expectation.actions.map(\.value)))
        }
        return entries
    }

    /// A path from the test file, taken relative to the test file's folder unless it is absolute.
    static func resolve(_ path: String, in directory: String) -> String {
        guard !path.hasPrefix("/"), !directory.isEmpty else { return path }
        return ((directory as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }
}
