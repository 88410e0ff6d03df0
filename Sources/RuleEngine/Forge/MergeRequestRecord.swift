import GitbayKit

/// One merge request as far as the bot knows it: the wire model plus which parts have been read.
public struct MergeRequestRecord: Sendable, Hashable {
    public var mergeRequest: MergeRequest
    public var known: Set<ReadNeed>

    public init(mergeRequest: MergeRequest, known: Set<ReadNeed>) {
        self.mergeRequest = mergeRequest
        self.known = known
    }
}
