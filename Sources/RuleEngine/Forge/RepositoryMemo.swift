import Synchronization

/// Values derived from one repository's state, each computed on first use and then shared by every
/// copy of that state, keyed by the value's type.
///
/// Plugins answer per-item fields from repository-wide facts (open merge requests' heads, the
/// newest build of each ref and job); scanning those per item made evaluation quadratic in the
/// repository's size. ``RepositoryState`` replaces its memo whenever it changes, so a value is
/// never stale, and the memo takes no part in equality.
public final class RepositoryMemo: Sendable, Hashable {
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    /// The value of type `Value` derived from this state, made by `make` the first time.
    public func value<Value: Sendable>(_ make: () -> Value) -> Value {
        let key = ObjectIdentifier(Value.self)
        if let value = values.withLock({ $0[key] }) as? Value { return value }
        let value = make()
        return values.withLock { stored in
            if let earlier = stored[key] as? Value { return earlier }
            stored[key] = value
            return value
        }
    }

    public static func == (lhs: RepositoryMemo, rhs: RepositoryMemo) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}
