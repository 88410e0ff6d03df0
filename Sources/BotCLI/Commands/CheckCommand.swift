import ArgumentParsing
import Foundation
import RuleEngine
import YAML

/// `gitbay-bot check [RULES...]`: compiler-style diagnostics for rule files and the configuration.
///
/// It reads `gitbay-bot.yml` (or `--config FILE`) as every other command does, so a mistake there
/// is found by the check a CI job runs on a change, not by the scheduled run after it, and the
/// rules are checked with what the file gives them: its `rules:`, `scope:` and `schedule:`.
struct CheckCommand {
    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry

    func run() throws(CommandFailure) -> BotExitCode {
        // A wrong --scope is reported with the usage line, as the parser reports its own mistakes.
        if let text = invocation.value("scope") {
            do {
                _ = try RuleScope(parsing: text)
            } catch {
                let message = MessageInfo(.usageError(invocation.usageError("--scope: \(error.message)")))
                console.write(message.text, to: message.stream)
                return .usage
            }
        }
        let settings = try ConfigurationLoader.settings(
            invocation: invocation, environment: environment, console: console)
        let files: [(path: String, bytes: [UInt8])]
        do {
            files = try RuleSet.files(at: settings.rules)
        } catch {
            throw CommandFailure(rulePaths: error, command: "check")
        }
        let ruleSet = RuleSet.load(
            files: files, registry: registry, scopeOverride: settings.scope, defaultSchedule: settings.schedule)
        if invocation.value("format") == "json" {
            console.write(CheckReport(ruleSet: ruleSet, files: files.map(\.path)).json(), to: .output)
        } else {
            printText(ruleSet, fileCount: files.count)
        }
        return ruleSet.hasErrors ? .invalidRules : .ok
    }

    private func printText(_ ruleSet: RuleSet, fileCount: Int) {
        for diagnostic in ruleSet.diagnostics {
            console.write(diagnostic.rendered(sources: ruleSet.sources) + "\n", to: .error)
        }
        let errors = ruleSet.diagnostics.filter { $0.severity == .error }.count
        let warnings = ruleSet.diagnostics.filter { $0.severity == .warning }.count
        let files = fileCount == 1 ? "1 file" : "\(fileCount) files"
        if errors == 0 {
            let rules = ruleSet.rules.count == 1 ? "1 rule" : "\(ruleSet.rules.count) rules"
            let verdict = warnings == 0 ? "no problems found" : warnings == 1 ? "1 warning" : "\(warnings) warnings"
            console.write("\(files), \(rules): \(verdict)\n", to: .output)
        } else {
            console.write("\(files): \(errors == 1 ? "1 error" : "\(errors) errors")\n", to: .error)
        }
    }
}
