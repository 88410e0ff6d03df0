/// What the operator lets repositories' own rules do (`repository_rules:` in `gitbay-bot.yml`),
/// and whether a run reads them at all.
public struct RepositoryRulesPolicy: Sendable, Hashable {
    /// Whether runs read `.gitbay/bot.yml` of the repositories in the operator's scopes.
    public var reads: Bool
    /// The actions the operator keeps to its own rules (``RepositoryConfinement``).
    public var forbidden: Set<String>
    /// The schedule of every rule that writes none (`schedule:` of the configuration).
    public var defaultSchedule: Schedule?

    public init(reads: Bool = true, forbidden: Set<String> = [], defaultSchedule: Schedule? = nil) {
        self.reads = reads
        self.forbidden = forbidden
        self.defaultSchedule = defaultSchedule
    }
}
