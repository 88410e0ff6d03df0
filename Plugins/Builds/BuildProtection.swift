import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// Why a build must never be cancelled, whatever a rule says.
///
/// Builds belong to commits and gitbay lets one build stand for the same sha on every ref, so
/// cancelling a build that some live ref still needs writes `error` on that commit and blocks the
/// merge requests that require its checks.
public enum BuildProtection: Sendable, Hashable {
    /// The build's sha is the head of this open merge request.
    case openMergeRequestHead(Int)
    /// The build's sha is the tip of this branch.
    case branchTip(String)
    /// The build runs on the default branch (pushes, triggers and schedules).
    case defaultBranch(String)
    /// The build runs on this tag.
    case tag(String)
    /// A fact the protections depend on has not been read, so no protection can be ruled out.
    case unread(String)

    /// The reason, as the plan and the refusal show it.
    public var reason: String {
        switch self {
        case .openMergeRequestHead(let number):
            return "its commit is the head of open !\(number); cancelling it would block that merge request's checks"
        case .branchTip(let branch):
            return "its commit is the tip of branch \(branch)"
        case .defaultBranch(let branch):
            return "it runs on the default branch \(branch)"
        case .tag(let tag):
            return "it runs on tag \(tag)"
        case .unread(let what):
            return "\(what) has not been read, so the build cannot be shown safe to cancel"
        }
    }

    /// The first protection that applies to `build` in `repository`, or `nil` when none does.
    public static func find(for build: Build, in repository: RepositoryState) -> BuildProtection? {
        guard let defaultBranch = repository.defaultBranch else { return .unread("the default branch") }
        guard repository.refs != nil else { return .unread("repo refs") }
        // The open merge requests' heads: a listing across repositories knows which are open, not their heads.
        guard repository.known.contains(.openMergeRequests) else {
            return .unread("the open merge requests")
        }
        let index = BuildIndex.of(repository)
        if build.ref == defaultBranch { return .defaultBranch(defaultBranch) }
        if index.tags.contains(build.ref) { return .tag(build.ref) }
        if let number = index.openMergeRequestByHead[build.sha] { return .openMergeRequestHead(number) }
        if let branch = index.branchByTip[build.sha] { return .branchTip(branch) }
        return nil
    }
}
