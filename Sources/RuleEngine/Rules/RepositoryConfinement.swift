import GitbayKit

/// What a repository's own rules file (`.gitbay/bot.yml`) may do: act on its repository only, with
/// the actions the operator has not forbidden.
///
/// The file's maintainers review it like code, but the bot writes with the operator's token: a
/// rule there that reached another repository, or used an action the operator keeps to itself
/// (`merge`, say), would borrow authority nobody gave it. The compiler checks both at the place
/// written, and a rule that leaves `scope:` out acts on its repository.
public struct RepositoryConfinement: Sendable, Hashable {
    /// The repository the file is in.
    public var repository: RepositoryPath
    /// The actions the operator forbids in repository rules, by name (`add-label`, `merge`).
    public var forbiddenActions: Set<String>

    public init(repository: RepositoryPath, forbiddenActions: Set<String> = []) {
        self.repository = repository
        self.forbiddenActions = forbiddenActions
    }

    /// The one scope such a rule has: `repo:OWNER/NAME`.
    public var scope: RuleScope {
        RuleScope(terms: [.repository(repository.description)])
    }

    /// Whether a written scope names this repository and nothing else.
    func admits(_ written: RuleScope) -> Bool {
        Set(written.terms) == [.repository(repository.description)]
    }

    /// The error of a written scope that reaches further.
    func refusal(of written: RuleScope) -> String {
        "a repository's own rules act on \(repository) only, and '\(written)' names others "
            + "(leave 'scope:' out, or write 'repo:\(repository)')"
    }

    /// The error of a forbidden action.
    static func forbidding(_ action: String) -> String {
        "the operator forbids '\(action)' in repository rules (repository_rules: forbid: in gitbay-bot.yml)"
    }
}
