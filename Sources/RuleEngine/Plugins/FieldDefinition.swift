/// A field a plugin offers to rules: its name, type, one-line doc, what it needs read, and how its
/// value is derived from forge state.
public struct FieldDefinition: Sendable {
    public var name: String
    public var type: FieldType
    /// One line for `docs/fields.md`, `check` and editors.
    public var doc: String
    /// What must be read, beyond the list row, before the value can be derived; a `.detail` need
    /// comes with ``ReadNeed/freshDetail`` unless the field is declared ``cached(_:)``.
    public private(set) var needs: Set<ReadNeed>
    /// Derives the value; called only once ``needs`` are known.
    public var value: @Sendable (ItemContext) -> FieldValue
    /// Whether this is the field the server selects listings by (an issue's `state`, a build's
    /// `status`): a value every rule of the kind requires is asked of the server instead of read
    /// and thrown away, and an item outside it is not counted among those a rule looked at.
    public var selects = false
    /// What the value can be before ``needs`` are read, from cheaper needs: a condition the whole
    /// range decides the same way is decided without the read (``FieldBounds``).
    public private(set) var bounds: FieldBounds?
    /// Whether a value derived from the detail read may come from the read cache.
    ///
    /// It may when everything it reads moves the version the kind's listing gives
    /// (``CachedDetails/cacheVersion(of:)``). A field that needs no detail read is always
    /// read fresh, so this says nothing of it.
    public var isCached: Bool { !needs.contains(.freshDetail) }
    /// Whether a rule comparing the field waits while an item has no value of it.
    ///
    /// Rather than simply not matching: the value is a clock nothing has started yet
    /// (`comment_age.RULE` before the rule's notice), and unless something starts it the rule
    /// waits forever. A plan
    /// counts the items its rules wait on so (``Plan/RuleSummary/waiting``) and `explain` names
    /// the field, so no item waits without a word.
    public private(set) var absenceWaits = false

    public init(
        _ name: String, _ type: FieldType, needs: Set<ReadNeed> = [], doc: String,
        value: @escaping @Sendable (ItemContext) -> FieldValue
    ) {
        self.name = name
        self.type = type
        self.doc = doc
        self.needs = needs.contains(.detail) ? needs.union([.freshDetail]) : needs
        self.value = value
    }

    /// This field, declared as the one the server selects listings by (``selects``).
    public func selecting() -> FieldDefinition {
        var field = self
        field.selects = true
        return field
    }

    /// This field, declared safe to derive from a cached detail (``isCached``).
    public func cached() -> FieldDefinition {
        var field = self
        field.needs.remove(.freshDetail)
        return field
    }

    /// This field, declared one a rule waits on while it has no value (``absenceWaits``).
    public func waitingWhileAbsent() -> FieldDefinition {
        var field = self
        field.absenceWaits = true
        return field
    }

    /// This field, with the least and the most its value can be given only `needs` (a subset of
    /// its own, or none beyond the list row); `range` answers `nil` when it cannot say.
    public func bounded(
        needs: Set<ReadNeed> = [], _ range: @escaping @Sendable (ItemContext) -> FieldBounds.Range?
    ) -> FieldDefinition {
        var field = self
        field.bounds = FieldBounds(needs: needs, range: range)
        return field
    }

    /// The part the condition checker sees.
    public var spec: FieldSpec { FieldSpec(name: name, type: type) }
}
