import GitbayKit
import RuleEngine

extension ItemContext {
    /// The issue this context is about; `nil` for another kind of item, which an issue field
    /// answers as absent rather than guessing.
    var issue: GitbayKit.Issue? {
        if case .issue(let record) = item { return record.issue }
        return nil
    }
}
