/// The least and the most a field's value can be, known from cheaper reads than the value itself.
///
/// A detail read per item is what a run's budget goes on. Many conditions need no exact value:
/// `quiet > 60d` holds for an issue whose listing shows nothing moved it for 61 days, and fails
/// for one opened last week, whatever its comments say. A field that can bound itself from its
/// listing row lets the engine decide such a condition with no read; only an order comparison
/// (`>`, `>=`, `<`, `<=`) is decided this way, and only when both ends agree, since the set of
/// values it holds for is then an interval that takes in the whole range.
public struct FieldBounds: Sendable {
    /// The ends of the range, both included: values of the field's own type.
    public struct Range: Sendable, Hashable {
        public var lower: FieldValue
        public var upper: FieldValue

        public init(lower: FieldValue, upper: FieldValue) {
            self.lower = lower
            self.upper = upper
        }

        /// How a result shows a condition decided by the range: `61d 3h to 1y 2d`.
        public var display: String {
            lower == upper ? lower.display : "\(lower.display) to \(upper.display)"
        }
    }

    /// What must be read for ``range`` to answer: beyond the list row, never more than the field's
    /// own needs.
    public var needs: Set<ReadNeed>
    /// The range, or `nil` when what is known cannot bound the value.
    public var range: @Sendable (ItemContext) -> Range?
}
