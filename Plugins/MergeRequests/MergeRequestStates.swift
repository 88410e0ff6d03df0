import GitbayKit
import RuleEngine

/// Each merge request's state by number in one repository, built once per repository state
/// (through its ``RepositoryMemo``) so finding a stack's parent is a lookup, not a scan.
struct MergeRequestStates: Sendable {
    /// The state of the first merge request (in the state's order) with each number.
    var byNumber: [Int: MergeRequestState] = [:]

    init(_ mergeRequests: [MergeRequestRecord]) {
        for record in mergeRequests where byNumber[record.mergeRequest.number] == nil {
            byNumber[record.mergeRequest.number] = record.mergeRequest.state
        }
    }
}
