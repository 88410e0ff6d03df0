/// Why a typed command or a ``RepositoryPath`` refused a value before anything was sent.
///
/// Each case mirrors a refusal gitbay itself would answer with exit 2 (or a wrong-target write), so
/// the bot reports the mistake with a precise message at plan time instead of a server round trip.
public enum GitbayCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A repository path that is not `owner/name` with two non-empty, space-free segments.
    case invalidRepositoryPath(String, reason: String)
    /// An issue, merge request or build number below 1.
    case invalidNumber(field: String, value: Int)
    /// A page size outside 1 to ``Page/maximumLimit``.
    case invalidLimit(Int)
    /// A label name that is blank or longer than 50 characters.
    case invalidLabelName(String)
    /// A label change with neither labels to add nor labels to remove.
    case emptyLabelChange
    /// An assignment change with neither users to add nor users to remove.
    case emptyAssigneeChange
    /// A username that is empty or contains whitespace.
    case invalidUsername(String)
    /// A comment body that is empty or only whitespace.
    case blankCommentBody
    /// A comment body over gitbay's 64 KiB stdin limit, in UTF-8 bytes.
    case commentBodyTooLarge(bytes: Int)
    /// A full-text search outside 2 to 200 bytes.
    case invalidSearch(String)
    /// A query-language text that is empty or only whitespace.
    case blankQuery
    /// A milestone title that is blank, or the reserved word `none`.
    case invalidMilestoneTitle(String)
    /// A filter value (ref, job, author) that is empty.
    case emptyFilter(flag: String)
    /// A label colour that is not six hex digits (with or without `#`) or empty.
    case invalidColor(String)
    /// A build status that `build list --status` does not accept.
    case unsupportedBuildStatus(String)
    /// `mr close --by` naming the merge request being closed.
    case supersededBySelf(Int)
    /// A blank issue title (`issue create` and `issue edit` refuse one).
    case blankTitle
    /// A commit status context that is blank, or under `ci/`, which gitbay keeps for its builds.
    case invalidStatusContext(String)
    /// A state `status set --state` does not accept.
    case unsupportedStatusState(String)
    /// A commit that is not 4 to 40 hex digits.
    case invalidCommit(String)
    /// A path in a repository gitbay would refuse (empty, leaving the repository) or read as a flag.
    case invalidFilePath(String)
    /// A ref that is empty or would be read as a flag.
    case invalidRef(String)

    public var description: String {
        switch self {
        case .invalidRepositoryPath(let path, let reason):
            "invalid repository path '\(path)': \(reason)"
        case .invalidNumber(let field, let value):
            "\(field) must be 1 or more, got \(value)"
        case .invalidLimit(let limit):
            "limit must be 1 to \(Page<Int>.maximumLimit), got \(limit)"
        case .invalidLabelName(let name):
            "label name must be 1 to 50 characters and not blank, got '\(name)'"
        case .emptyLabelChange:
            "a label change needs at least one label to add or remove"
        case .emptyAssigneeChange:
            "an assignment change needs at least one user to add or remove"
        case .invalidUsername(let name):
            "username must be non-empty without whitespace, got '\(name)'"
        case .blankCommentBody:
            "comment body must not be empty or blank"
        case .commentBodyTooLarge(let bytes):
            "comment body is \(bytes) bytes; gitbay accepts at most \(CommandValidation.maximumBodyBytes)"
        case .invalidSearch(let text):
            "search text must be 2 to 200 bytes, got \(text.utf8.count)"
        case .blankQuery:
            "query must not be empty or blank"
        case .invalidMilestoneTitle(let title):
            "milestone title must be non-blank and not 'none', got '\(title)'"
        case .emptyFilter(let flag):
            "\(flag) must not be empty"
        case .invalidColor(let color):
            "colour must be six hex digits with or without '#', or empty to clear, got '\(color)'"
        case .unsupportedBuildStatus(let status):
            "build list --status accepts pending, running, success, failure or cancelled, got '\(status)'"
        case .supersededBySelf(let number):
            "merge request \(number) cannot be superseded by itself"
        case .blankTitle:
            "title must not be empty or blank"
        case .invalidStatusContext(let context) where context.allSatisfy(\.isWhitespace):
            "a status context must not be empty or blank"
        case .invalidStatusContext(let context):
            "the ci/ prefix is reserved for gitbay's builds; report under another name, got '\(context)'"
        case .unsupportedStatusState(let state):
            "status set --state accepts pending, success, failure or error, got '\(state)'"
        case .invalidCommit(let sha):
            "a commit is 4 to 40 hex digits, got '\(sha)'"
        case .invalidFilePath(let path):
            "a file path must name something inside the repository and not start with '--', got '\(path)'"
        case .invalidRef(let ref):
            "a ref must be non-empty and not start with '-', got '\(ref)'"
        }
    }
}
