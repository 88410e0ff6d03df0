import GitbayKit
import RuleEngine

extension ItemContext {
    /// The merge request this context is about; `nil` for another kind of item, which a merge
    /// request field answers as absent rather than guessing.
    var mergeRequest: MergeRequest? {
        if let box = item.box(as: MergeRequestRecord.self) { return box.record.mergeRequest }
        return nil
    }
}
