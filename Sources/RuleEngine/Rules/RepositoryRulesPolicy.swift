/// What the operator lets repositories' own rules do (`repository_rules:` in `gitbay-bot.yml`),
/// and whether a run reads them at all.
public struct RepositoryRulesPolicy: Sendable, Hashable {
    /// Whether runs read `.gitbay/bot.yml` of the repositories in the operator's scopes.
    public var reads: Bool
    /// Whether runs preview an open merge request's change to a repository's rules file on it
    /// (a comment and a `gitbay-bot/rules` status on its head); only where the files are read.
    public var previews: Bool
    /// The actions the operator keeps to its own rules (``RepositoryConfinement``).
    public var forbidden: Set<String>
    /// The highest `limit:` a repository's rule may have, which a rule without one gets; `nil`
    /// leaves their limits as written.
    public var maximumLimit: Int?
    /// The schedule of every rule that writes none (`schedule:` of the configuration).
    public var defaultSchedule: Schedule?

    public init(
        reads: Bool = true, previews: Bool = true, forbidden: Set<String> = [], maximumLimit: Int? = nil,
        defaultSchedule: Schedule? = nil
    ) {
        self.maximumLimit = maximumLimit
        self.reads = reads
        self.previews = previews
        self.forbidden = forbidden
        self.defaultSchedule = defaultSchedule
    }
}
