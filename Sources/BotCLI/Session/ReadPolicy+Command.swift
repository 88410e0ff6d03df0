import Foundation
import RuleEngine

extension ReadPolicy {
    /// The policy of a command's read: `reading` under `settings`, its guards `guards` (the
    /// settings' with the share of the unfinished actions kept), the account's read cache `cache`.
    ///
    /// `run` and `plan` keep the settings' sweep (`--sweep-period`, 0 for none) and read budget, and
    /// read the repositories' own rules as `repository_rules:` says (`explain`: its item's); a
    /// `watch` pass reads every repository it looks at, its own poll having told it what changed,
    /// and trusts the cache always; `explain` reads its item afresh and keeps nothing.
    init(_ reading: CommandReading, settings: Settings, guards: EvaluationOptions, cache: any ReadCache) {
        switch reading {
        case .run(let readAll, let noCache):
            self.init(
                readAll ? .audit : .guarded(guards), cache: noCache ? .refreshes(cache) : .trusts(cache),
                sweepPeriod: settings.sweepPeriod > 0 ? settings.sweepPeriod : nil, readBudget: settings.readBudget)
            repositoryRules = settings.repositoryRules
        case .pass(let targets):
            self.init(targets.map { .targets($0, guards: guards) } ?? .guarded(guards), cache: .trusts(cache))
            // A full pass reads the repositories' files; an events pass judges the rules the last
            // full pass read, and reads again only those its events may have moved (a merge, a push).
            if targets == nil || targets?.ruleFiles.isEmpty == false { repositoryRules = settings.repositoryRules }
        case .item(let item):
            self.init(.item(item))
            repositoryRules = settings.repositoryRules
        }
    }
}
