import GitbayKit
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
        guard let refs = repository.refs else { return .unread("repo refs") }
        guard !repository.known.isDisjoint(with: [.openMergeRequests, .allMergeRequests]) else {
            return .unread("the open merge requests")
        }
        if build.ref == defaultBranch { return .defaultBranch(defaultBranch) }
        if refs.tags.contains(where: { $0.name == build.ref }) { return .tag(build.ref) }
        let openHead = repository.mergeRequests.first {
            $0.mergeRequest.state == .open && $0.mergeRequest.headSHA == build.sha
        }
        if let openHead { return .openMergeRequestHead(openHead.mergeRequest.number) }
        if let branch = refs.branches.first(where: { $0.sha == build.sha }) { return .branchTip(branch.name) }
        return nil
    }
}
