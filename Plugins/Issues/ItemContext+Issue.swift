import GitbayKit
import RuleEngine

extension ItemContext {
    /// The issue this context is about; `nil` for another kind of item, which an issue field
    /// answers as absent rather than guessing.
    var issue: GitbayKit.Issue? {
        if let box = item.box(as: IssueRecord.self) { return box.record.issue }
        return nil
    }
}
