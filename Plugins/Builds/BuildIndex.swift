import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// One repository's build-related facts by key, built once per repository state (through its
/// ``RepositoryMemo``) so each build's protections and supersession are lookups, not scans.
struct BuildIndex: Sendable {
    /// The first open merge request (in the state's order) whose head is each sha.
    var openMergeRequestByHead: [String: Int] = [:]
    /// The first branch (in `repo refs` order) whose tip is each sha.
    var branchByTip: [String: String] = [:]
    var tags: Set<String> = []
    /// The highest build number of each ref and job.
    var newestBuild: [RefAndJob: Int] = [:]

    /// A branch, tag or merge-request ref and the job run on it.
    struct RefAndJob: Hashable, Sendable {
        var ref: String
        var job: String
    }

    init(_ repository: RepositoryState) {
        for record in repository.mergeRequests where record.mergeRequest.state == .open {
            if openMergeRequestByHead[record.mergeRequest.headSHA] == nil {
                openMergeRequestByHead[record.mergeRequest.headSHA] = record.mergeRequest.number
            }
        }
        for branch in repository.refs?.branches ?? [] where branchByTip[branch.sha] == nil {
            branchByTip[branch.sha] = branch.name
        }
        tags = Set(repository.refs?.tags.map(\.name) ?? [])
        for build in repository.builds {
            let key = RefAndJob(ref: build.ref, job: build.job)
            newestBuild[key] = max(newestBuild[key] ?? build.number, build.number)
        }
    }

    /// The index of `repository`, made on first use and shared by every copy of that state.
    static func of(_ repository: RepositoryState) -> BuildIndex {
        repository.memo.value { BuildIndex(repository) }
    }
}
