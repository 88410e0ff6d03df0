/// One named value of an action that takes several, as `set-status` takes `context`, `state` and
/// `description`.
///
/// A parameter is either one of a few words, checked with a "did you mean", or text with
/// `{{ field }}` templates, checked as a comment's text is; `refusal` turns away, at `check`, a
/// text gitbay would refuse whatever the item (a `ci/` status context).
public struct ActionParameter: Sendable {
    public var name: String
    /// One line for `docs/fields.md` and the JSON Schema.
    public var doc: String
    /// The words it takes; `nil` for text with templates.
    public var values: [String]?
    /// Whether a rule must give it.
    public var required: Bool
    /// Why a value as written would be refused by gitbay, or `nil` when it may be sent.
    public var refusal: @Sendable (String) -> String?

    public init(
        _ name: String, values: [String]? = nil, required: Bool = true, doc: String,
        refusal: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.name = name
        self.values = values
        self.required = required
        self.doc = doc
        self.refusal = refusal
    }
}
