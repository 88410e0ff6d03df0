import GitbayKit
import RuleEngine

extension RepositoryState {
    /// The dependency checker's state; `nil` until read (``ReadNeed/dependencies``).
    public var dependencies: DependencyStatus? {
        get { self[.dependencies] }
        set { self[.dependencies] = newValue }
    }
}
