import GitbayKit
import RuleEngine

extension RepositoryState {
    /// Branch and tag tips; `nil` until read (``ReadNeed/refs``).
    public var refs: RepositoryRefs? {
        get { self[.refs] }
        set { self[.refs] = newValue }
    }
}
