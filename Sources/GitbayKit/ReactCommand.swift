/// Reacts to an issue or merge request, or to one of its comments:
/// `issue react|mr react <repo> <n> [--comment <id>] <reaction> [--remove]`.
///
/// gitbay asks only read access, answers the same whether the reaction was there or not, and files
/// no event, no webhook delivery and no `updated_at` change (`internal/control/react.go`,
/// `runReact`; `store.SetReaction`): the reaction is the bot's quiet acknowledgement of a command,
/// which `show` gives back as `me`. A comment id that is not one of that item's person's comments
/// exits 3.
public struct ReactCommand: GitbayCommand, Hashable {
    public typealias Response = ReactReply

    /// Which of gitbay's two react commands.
    public enum Target: String, Sendable, Hashable {
        case issue
        case mergeRequest = "mr"
    }

    public static var effect: CommandEffect { .write }

    public let target: Target
    public let repository: RepositoryPath
    public let number: Int
    /// The comment reacted to; `nil` for the item itself.
    public let comment: Int?
    public let reaction: Reaction
    public let remove: Bool

    /// Refuses a number or comment id below 1.
    public init(
        _ target: Target, repository: RepositoryPath, number: Int, comment: Int? = nil, reaction: Reaction,
        remove: Bool = false
    ) throws(GitbayCommandError) {
        self.target = target
        self.repository = repository
        self.number = try CommandValidation.number(
            number, field: target == .issue ? "issue number" : "merge request number")
        self.comment = try comment.map { id throws(GitbayCommandError) in
            try CommandValidation.number(id, field: "comment id")
        }
        self.reaction = reaction
        self.remove = remove
    }

    public var argv: [String] {
        [target.rawValue, "react", repository.description, String(number)]
            + (comment.map { ["--comment", String($0)] } ?? []) + [reaction.argument] + (remove ? ["--remove"] : [])
    }
}
