/// Sets or clears an issue's milestone: `issue milestone <repo> <n> <title|none>`.
///
/// gitbay reads the word `none` as "clear", so `nil` renders `none` and a milestone titled `none` is
/// refused; an unknown title exits 3.
public struct IssueMilestoneCommand: GitbayCommand, Hashable {
    public typealias Response = MilestoneReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int
    /// The milestone title to set, or `nil` to clear it.
    public let milestone: String?

    /// Refuses a number below 1 and a blank title or the title `none`.
    public init(repository: RepositoryPath, number: Int, milestone: String?) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "issue number")
        self.milestone = try milestone.map { (title) throws(GitbayCommandError) in
            try CommandValidation.milestoneTitle(title)
        }
    }

    public var argv: [String] {
        [
            "issue", "milestone", repository.description, String(number),
            milestone ?? MilestoneFilter.withoutMilestone.argument,
        ]
    }
}
