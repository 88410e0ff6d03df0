import Foundation
import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// What a run read of one repository's builds, kept in the read cache so that the next runs take
/// it instead of reading it again while the sweep says nothing changed there (``RepositorySweep``).
///
/// It holds what the builds' fields consult: the builds read, the default branch, the branch and
/// tag tips and the heads of the open merge requests (where they were read), and the watermark
/// the next read of the repository starts from.
struct BuildCopy: Codable, Hashable {
    /// Where the builds that may still change began (``BuildReader``'s watermark), when the read saw them all.
    var watermark: Int?
    var builds: [Build]
    var defaultBranch: String?
    /// When the default branch was asked (`repo show`), which a copy carries while the
    /// repository is read for changes, up to a period (``RuleEngine/ReadContext/isFresh(_:)``).
    var defaultBranchRead: Date?
    var refs: RepositoryRefs?
    /// The open merge requests as the read knew them; `nil` when it did not read them.
    var openMergeRequests: [MergeRequest]?

    /// The copy of `repository` as read, with the watermark for the next read and the date its
    /// default branch was asked.
    init(of repository: RepositoryState, watermark: Int?, defaultBranchRead: Date?) {
        self.watermark = watermark
        self.defaultBranchRead = defaultBranchRead
        builds = repository.builds
        let read = repository.known.contains(.refs)
        defaultBranch = read ? repository.defaultBranch : nil
        refs = read ? repository.refs : nil
        openMergeRequests =
            read && repository.known.contains(.openMergeRequests)
            ? repository.mergeRequests.map(\.mergeRequest).filter { $0.state == .open } : nil
    }

    /// Puts the copy into `repository`, leaving what another kind's listing read this run (its
    /// open merge requests) as it is.
    func restore(into repository: inout RepositoryState) {
        repository.builds = builds
        if let refs {
            repository.defaultBranch = defaultBranch
            repository.refs = refs
            repository.known.insert(.refs)
        }
        if let openMergeRequests, !repository.known.contains(.openMergeRequests) {
            repository.mergeRequests = MergeRequestRecord.merging(openMergeRequests, into: repository.mergeRequests)
            repository.known.insert(.openMergeRequests)
        }
    }
}
