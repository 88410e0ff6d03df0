/// What one look at an open merge request found of its repository's rules file: whether its head
/// changes `.gitbay/bot.yml` and, when it does, that file and its bases as the head holds them.
///
/// The look is kept (in the read cache, per repository) with the merge request's `updated_at`,
/// which a push moves: a run looks again only at a merge request that changed since, so a quiet
/// run reads nothing for previews. A proposal is never acted on; it is only previewed.
public struct RuleProposal: Sendable, Hashable, Codable {
    /// The merge request's number.
    public var number: Int
    /// Its `updated_at` as the query row showed it when it was looked at.
    public var updated: String
    /// The head looked at (40 hex); empty when gitbay named none.
    public var head: String
    /// The files as the head holds them, when the merge request changes the rules file (`own`
    /// `nil` when it deletes it); `nil` when it leaves the file as it is.
    public var files: RepositoryRuleFiles?

    public init(number: Int, updated: String, head: String, files: RepositoryRuleFiles? = nil) {
        self.number = number
        self.updated = updated
        self.head = head
        self.files = files
    }

    /// Whether the merge request changes the rules file.
    public var changesRules: Bool { files != nil }
}
