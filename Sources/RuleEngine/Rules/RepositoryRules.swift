import CommentCommands
import GitbayKit
import YAML

/// The rules of every repository that carries its own (`.gitbay/bot.yml`), built from what the
/// read recorded of each (``RepositoryRuleFiles``), online and offline alike.
///
/// A repository's file with an error stops that repository's own rules only: the operator's go
/// on, and the repository is listed with its first error, for the plan, the status page and the
/// failing `gitbay-bot/rules` status that tells its maintainers.
public struct RepositoryRules: Sendable {
    /// Each repository's rules as loaded, with their diagnostics, for those that carry a file.
    public var sets: [RepositoryPath: RuleSet] = [:]

    public init() {}

    /// The rules of every repository whose file has no error, repository after repository.
    public var rules: [Rule] {
        sets.keys.sorted().flatMap { sets[$0]?.rules ?? [] }
    }

    /// The repositories whose file has an error, with its first, in repository order.
    public var broken: [(repository: RepositoryPath, error: Diagnostic)] {
        sets.keys.sorted().compactMap { path in
            sets[path]?.diagnostics.first { $0.severity == .error }.map { (path, $0) }
        }
    }

    /// One plan note per repository whose file has an error: its own rules wait (or, where the
    /// errors only refuse rules, those rules wait and the others act), the operator's go on, and
    /// the command that shows every mistake.
    public var notes: [String] {
        broken.map { repository, error in
            let acting = sets[repository]?.rules.isEmpty == false
            let lead =
                acting
                ? "\(repository)'s rules file has errors; the rules they concern wait until it is mended, and its "
                    + "other rules act"
                : "\(repository)'s own rules are not used until its file is mended"
            return "\(lead): \(error.location): error: \(error.message) "
                + "(gitbay-bot check --repository \(repository) --read-bases)"
        }
    }

    /// Adds ``notes`` to `plan`'s.
    public func note(on plan: inout Plan) {
        let notes = (plan.notes ?? []) + self.notes
        plan.notes = notes.isEmpty ? nil : notes
    }

    /// The rules of each repository of `state` that recorded a file, under what `policy` lets them
    /// do, beside `operatorRules`: a command one of those already answers there is an error
    /// (``conflicts(_:with:in:)``).
    public static func load(
        _ state: ForgeState, policy: RepositoryRulesPolicy, registry: PluginRegistry, operatorRules: [Rule]
    ) async -> RepositoryRules {
        let (forbidden, defaultSchedule) = (policy.forbidden, policy.defaultSchedule)
        var loaded = RepositoryRules()
        for repository in state.repositories {
            guard let files = repository.ruleFiles, let own = files.own else { continue }
            let confinement = RepositoryConfinement(repository: repository.path, forbiddenActions: forbidden)
            let name = RuleFileReference(repository: repository.path, path: RuleFileReference.repositoryFile)
                .description
            switch own {
            case .refused(let reason):
                let start = SourceLocation(file: name, line: 1, column: 1)
                loaded.sets[repository.path] = RuleSet(
                    rules: [], diagnostics: [.error(reason, at: start)], sources: [:])
            case .text(let text):
                var set = await RepositoryRuleChain.load(
                    (name, Array(text.utf8)), confinement: confinement, registry: registry,
                    defaultSchedule: defaultSchedule, fetcher: RecordedRuleFiles(bases: files.bases))
                if let cap = policy.maximumLimit {
                    set.rules = set.rules.map { rule in
                        var rule = rule
                        rule.limit = min(rule.limit ?? cap, cap)
                        return rule
                    }
                }
                let conflicts = conflicts(set.rules, with: operatorRules, in: repository.path)
                if !conflicts.isEmpty {
                    // A command the operator's rules give is refused like a scope: that rule waits,
                    // with what counts from it.
                    let refused = Set(
                        set.rules.filter { rule in conflicts.contains { $0.location == rule.location } }.map(\.name))
                    let (kept, waiting) = RepositoryRuleNaming.withoutRefused(
                        set.rules, refused: refused, registry: registry)
                    set.diagnostics = (set.diagnostics + conflicts + waiting).sorted { $0.location < $1.location }
                    set.rules = kept
                }
                loaded.sets[repository.path] = set
            }
        }
        return loaded
    }
}

extension RepositoryRules {
    /// Each rule of `rules` (one repository's) whose command a rule of `operatorRules` acting on
    /// `repository` already gives for the same kind, as an error at the rule.
    ///
    /// Every rule of a kind giving a command's name answers a comment with it: the repository's
    /// and the operator's would both act on one `/label bug`, each with its own `allowed:`, so
    /// whoever the looser one lets in gets what the stricter one refuses, and the person sees a 👍
    /// and a refusal for one line. Within one set `check` refuses this already.
    static func conflicts(_ rules: [Rule], with operatorRules: [Rule], in repository: RepositoryPath) -> [Diagnostic] {
        var given: [String: Rule] = [:]
        for rule in operatorRules where rule.scope.contains(repository) {
            guard let name = rule.command?.pattern.name else { continue }
            given["\(rule.kind.rawValue) \(name)"] = given["\(rule.kind.rawValue) \(name)"] ?? rule
        }
        return rules.compactMap { rule in
            guard let name = rule.command?.pattern.name, let other = given["\(rule.kind.rawValue) \(name)"] else {
                return nil
            }
            return .error(
                "/\(name) is already the command of the operator's rule '\(other.name)' for \(rule.kind.rawValue) "
                    + "here; one comment would be answered by both (give this rule another command)",
                at: rule.location)
        }
    }
}

/// The bases a read recorded, given back to the chain as it met them.
struct RecordedRuleFiles: RuleFileFetcher {
    var bases: [String: RepositoryRuleFiles.Content]

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        switch bases[reference.description] {
        case .text(let text): return .success(Array(text.utf8))
        case .refused(let reason): return .failure(RuleFileFetchFailure(reason))
        // The read follows the same chain, so it recorded every file this one asks for.
        case nil: return .failure(RuleFileFetchFailure("it was not read"))
        }
    }
}
