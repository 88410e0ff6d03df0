import BuiltinPlugins
import Foundation
import GitbayTestSupport
import RuleEngine

/// The rules the repository ships (`rules/*.yml`) and the built-in plugins, as the bot loads them.
enum ShippedRules {
    /// Issues, merge requests and builds: the registry `gitbay-bot` itself uses.
    static let registry = BuiltinPlugins.registry

    /// The `rules/` folder of this checkout.
    static let folder = SimulatorProcess.repositoryRoot.appendingPathComponent("rules")

    /// The rule files of `folder`, the shipped ones unless told, paths and text in path order.
    ///
    /// Another folder (another checkout's `rules/`) lets two builds be timed on the same rules.
    static func files(in folder: URL = folder) throws -> [(path: String, bytes: [UInt8])] {
        try RuleSet.files(at: [folder.path])
    }

    /// The shipped rules, checked, with `scope` replacing their own as `--scope` does; a
    /// diagnostic error stops the benchmark.
    static func load(scope: RuleScope? = nil) throws -> [Rule] {
        let set = RuleSet.load(files: try files(), registry: registry, scopeOverride: scope)
        guard !set.hasErrors else { throw Failure.invalidRules(set.diagnostics.map { "\($0)" }) }
        return set.rules
    }

    /// Why the benchmark could not use its rules.
    enum Failure: Error, CustomStringConvertible {
        case invalidRules([String])

        var description: String {
            switch self {
            case .invalidRules(let diagnostics):
                return "the rules do not check:\n" + diagnostics.joined(separator: "\n")
            }
        }
    }
}
