import GitbayKit
import RuleEngine

extension ItemContext {
    /// The build this context is about; `nil` for another kind of item, which a build field answers
    /// as absent rather than guessing.
    var build: Build? {
        if let box = item.box(as: Build.self) { return box.record }
        return nil
    }
}
