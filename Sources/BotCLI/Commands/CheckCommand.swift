import ArgumentParsing
import Foundation
import RuleEngine
import YAML

/// `gitbay-bot check [PATH...]`: compiler-style diagnostics for rule files.
struct CheckCommand {
    let invocation: Invocation
    let console: any Console
    let registry: PluginRegistry

    func run() -> BotExitCode {
        let paths = invocation.positionals("path").isEmpty ? ["rules"] : invocation.positionals("path")
        var scope: RuleScope?
        if let text = invocation.value("scope") {
            do {
                scope = try RuleScope(parsing: text)
            } catch {
                let message = MessageInfo(.usageError(invocation.usageError("--scope: \(error.message)")))
                console.write(message.text, to: message.stream)
                return .usage
            }
        }
        let files: [(path: String, bytes: [UInt8])]
        do {
            files = try RuleSet.files(at: paths)
        } catch {
            console.write("error: \(CommandFailure(rulePaths: error, command: "check").message)\n", to: .error)
            return .invalidRules
        }
        let ruleSet = RuleSet.load(files: files, registry: registry, scopeOverride: scope)
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
