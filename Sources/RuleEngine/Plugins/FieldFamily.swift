/// Fields that take a name after their prefix, `label_age.stale` or `comment_age.mark-stale`:
/// one definition for every label or rule a rule file may name.
///
/// A close rule must wait from its own notice or label, not from any comment of the bot's, and
/// which label or rule that is only the rule file knows; a field per name is made on demand when
/// a condition names it, and checked and read like any other.
public struct FieldFamily: Sendable {
    /// What comes before the dot: `label_age`.
    public var prefix: String
    /// What the name after the dot is, for the docs: `LABEL`, `RULE`.
    public var parameter: String
    public var type: FieldType
    /// One line for `docs/fields.md`, naming ``parameter``.
    public var doc: String
    public var needs: Set<ReadNeed>
    /// Whether a value derived from a cached detail may be trusted (``FieldDefinition/cached()``).
    public var cached: Bool
    /// Whether a rule waits on a field of the family while it has no value
    /// (``FieldDefinition/absenceWaits``).
    public var absenceWaits: Bool
    /// Whether the name after the dot is a rule's (`comment_age.RULE`): a name no rule of the
    /// rule set has is an error at it, since the field would never have a value
    /// (``RuleSet/unknownRules(_:among:)``).
    public var namesRule: Bool
    /// Derives the value for the name after the dot.
    public var value: @Sendable (String, ItemContext) -> FieldValue

    public init(
        _ prefix: String, parameter: String, _ type: FieldType, needs: Set<ReadNeed>, cached: Bool = false,
        absenceWaits: Bool = false, namesRule: Bool = false, doc: String,
        value: @escaping @Sendable (String, ItemContext) -> FieldValue
    ) {
        self.prefix = prefix
        self.parameter = parameter
        self.type = type
        self.needs = needs
        self.cached = cached
        self.absenceWaits = absenceWaits
        self.namesRule = namesRule
        self.doc = doc
        self.value = value
    }

    /// The field `prefix.name`, or `nil` when `name` is empty.
    public func field(_ name: String) -> FieldDefinition? {
        guard !name.isEmpty else { return nil }
        let value = self.value
        var field = FieldDefinition("\(prefix).\(name)", type, needs: needs, doc: doc) { value(name, $0) }
        if absenceWaits { field = field.waitingWhileAbsent() }
        return cached ? field.cached() : field
    }

    /// The name after the prefix in `fieldName`, when `fieldName` is one of this family's.
    public func parameter(of fieldName: String) -> String? {
        guard fieldName.hasPrefix(prefix + ".") else { return nil }
        let name = String(fieldName.dropFirst(prefix.count + 1))
        return name.isEmpty ? nil : name
    }

    /// The part the condition checker sees, as the docs list it: `label_age.LABEL`.
    public var spec: FieldSpec { FieldSpec(name: "\(prefix).\(parameter)", type: type) }
}
