import ArgumentParsing
import GitbayKit
import RuleEngine
import Watch
import YAML

extension WatchPass {
    /// Puts the repositories whose rules file has an error on the page and `/metrics`
    /// (``WatchTelemetry/ruleFilesBroken(_:)``), and says once each on stderr those that began to
    /// and those mended: their rules wait meanwhile, while the operator's go on.
    ///
    /// `repositories` names those whose files the pass read (an events pass after a merge or a
    /// push there); the others stand as the last pass found them. `nil` is every one (a full pass).
    func sayBrokenRuleFiles(_ rules: RepositoryRules, in repositories: Set<RepositoryPath>?) {
        let broken = Dictionary(
            rules.broken.map {
                (
                    $0.repository.description,
                    "\($0.error.location.line):\($0.error.location.column): \($0.error.message)"
                )
            },
            uniquingKeysWith: { first, _ in first })
        let (began, mended) = telemetry.ruleFilesBroken(broken, in: repositories.map { Set($0.map(\.description)) })
        for repository in began {
            console.write(
                "warning: \(repository)'s own rules wait until its file is mended: \(broken[repository] ?? "") "
                    + "(gitbay-bot check --repository \(repository) --read-bases)\n", to: .error)
        }
        for repository in mended {
            console.write("note: \(repository)'s rules file is mended; its rules act again\n", to: .error)
        }
    }
}
