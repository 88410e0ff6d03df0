import YAML

extension CompiledCondition {
    /// One condition of the tree with everything a result reports about it.
    ///
    /// A class so that visiting it retains one reference instead of copying every string in it.
    final class Test: Sendable {
        /// The field's derivation; `nil` when no plugin offers the field for this kind (the
        /// condition is then unknown).
        let value: (@Sendable (ItemContext) -> FieldValue)?
        /// Where an item's value of the field is kept once derived.
        let slot: Int
        let needs: ReadNeed.Mask
        /// The field's range from cheaper reads, when it has one and the predicate is an order
        /// comparison, the one kind a range can decide (``FieldBounds``).
        let bounds: (@Sendable (ItemContext) -> FieldBounds.Range?)?
        let boundsNeeds: ReadNeed.Mask
        let predicate: Predicate
        let isNegated: Bool
        /// Whether a rule waits while the item has no value of the field (``FieldDefinition/absenceWaits``).
        let absenceWaits: Bool
        let text: String
        let field: String
        let location: String
        /// The labels a label-set condition names, sorted as a set displays them, when its result
        /// shows which of them the item carries rather than the whole set
        /// (``CompiledCondition/init(_:kind:registry:namedLabelsOnly:)``).
        let namedLabels: [String]?
        /// What every such result ends with, ` of [pinned, stale]`, written once.
        let namedLabelsSuffix: String

        init(
            _ condition: CheckedCondition, at location: SourceLocation, kind: ItemKind, registry: PluginRegistry,
            slots: inout FieldSlots, namedLabelsOnly: Bool
        ) {
            let field = registry.field(condition.field.name, for: kind)
            let named = namedLabelsOnly && field?.type == .labelSet ? Self.names(in: condition.predicate) : nil
            namedLabels = named?.sorted()
            namedLabelsSuffix = named.map { " of " + FieldValue.set($0).display } ?? ""
            value = field?.value
            slot = slots.slot(for: condition.field.name)
            needs = registry.mask(field?.needs ?? [])
            if case .order = condition.predicate, let fieldBounds = field?.bounds {
                bounds = fieldBounds.range
                boundsNeeds = registry.mask(fieldBounds.needs)
            } else {
                bounds = nil
                boundsNeeds = []
            }
            predicate = condition.predicate
            isNegated = condition.expression.isNegated
            absenceWaits = field?.absenceWaits ?? false
            text = condition.expression.text
            self.field = condition.field.name
            self.location = location.description
        }

        /// Whether the condition holds for the item; `nil` when its field is not read and no range
        /// of it decides the condition.
        ///
        /// The verdict alone, for deciding: ``result(_:values:)`` also writes what the check saw,
        /// which only the entries' results need.
        func holds(_ context: ItemContext, values: inout FieldValues) -> Bool? {
            guard let value else { return nil }
            guard context.knows(needs) else {
                return range(context).flatMap { decision(by: $0, context, patterns: values.patterns) }
            }
            let observed = values.value(at: slot) { value(context) }
            return predicate.holds(for: observed, me: context.me, patterns: values.patterns) != isNegated
        }

        /// The verdict ``holds(_:values:)`` gives, but unknown (`nil`) where the item has no value
        /// of a field a rule waits on (``absenceWaits``, or a value nobody can say,
        /// ``FieldValue/unknown``) and the test is not `is absent` itself: what the condition would
        /// say once the value comes.
        func holdsOnceKnown(_ context: ItemContext, values: inout FieldValues) -> Bool? {
            guard let value, context.knows(needs), !isAbsenceTest else { return holds(context, values: &values) }
            let observed = values.value(at: slot) { value(context) }
            guard observed == .unknown || (absenceWaits && observed == .absent) else {
                return predicate.holds(for: observed, me: context.me, patterns: values.patterns) != isNegated
            }
            return nil
        }

        /// Whether the test is `is absent` or `is present`, which an absent value decides.
        private var isAbsenceTest: Bool {
            if case .absence = predicate { return true }
            return false
        }

        /// The verdict ``holds(_:values:)`` gives, with what the result records the check saw:
        /// the value (``shown(_:)``), the range that decided it unread as its ends
        /// (`61d 3h to 1y 2d`), or `(not read)`.
        ///
        /// Written here rather than handed out as an enum of value or range, which every recorded
        /// test made, copied and dropped at a cost profiles showed beside the text's own. A range
        /// is never kept among the item's values: another condition on the field may need the value.
        func result(_ context: ItemContext, values: inout FieldValues) -> (holds: Bool?, observed: String) {
            guard let value else { return (nil, Self.unread) }
            guard context.knows(needs) else {
                guard let range = range(context), let holds = decision(by: range, context, patterns: values.patterns)
                else {
                    return (nil, Self.unread)
                }
                return (holds, range.display)
            }
            let observed = values.value(at: slot) { value(context) }
            let holds = predicate.holds(for: observed, me: context.me, patterns: values.patterns)
            return (holds != isNegated, shown(observed))
        }

        /// What a result records of a condition left undecided for want of a read.
        private static let unread = "(not read)"

        /// The field's range from cheaper reads; `nil` when it has none or they are not read.
        private func range(_ context: ItemContext) -> FieldBounds.Range? {
            guard let bounds, context.knows(boundsNeeds) else { return nil }
            return bounds(context)
        }

        /// The verdict the whole of `range` gives; `nil` when its ends disagree.
        private func decision(by range: FieldBounds.Range, _ context: ItemContext, patterns: Patterns) -> Bool? {
            let lower = predicate.holds(for: range.lower, me: context.me, patterns: patterns)
            let upper = predicate.holds(for: range.upper, me: context.me, patterns: patterns)
            return lower == upper ? lower != isNegated : nil
        }

        /// What the result records of a value: a label set as the labels the condition names that
        /// it carries, `[stale] of [pinned, stale]`, when ``namedLabels`` are set.
        private func shown(_ value: FieldValue) -> String {
            guard let namedLabels, case .set(let names) = value else { return value.display }
            return "[" + namedLabels.filter(names.contains).joined(separator: ", ") + "]" + namedLabelsSuffix
        }

        /// The label names a set predicate tests, each once; `nil` for any other predicate.
        private static func names(in predicate: Predicate) -> [String]? {
            switch predicate {
            case .hasAll(let literals), .hasAny(let literals), .lacksAll(let literals):
                var names: [String] = []
                for case .text(let name) in literals where !names.contains(name) { names.append(name) }
                return names
            default:
                return nil
            }
        }
    }
}
