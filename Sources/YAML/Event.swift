/// One libyaml parse event, copied into Swift memory so nothing C-owned outlives the parse loop.
///
/// Stream start and end are consumed by ``EventReader`` and never appear here.
enum Event: Sendable, Hashable {
    /// `---` or the implicit start of a document.
    case documentStart(SourceLocation)
    /// The end of a document.
    case documentEnd
    /// `*name`.
    case alias(String, SourceLocation)
    /// A scalar with its processed value; `end` is just past its last character.
    case scalar(
        value: String,
        anchor: String?,
        tag: String?,
        style: ScalarStyle,
        start: SourceLocation,
        end: SourceLocation
    )
    /// The start of a sequence.
    case sequenceStart(anchor: String?, tag: String?, start: SourceLocation)
    /// The end of the innermost open sequence.
    case sequenceEnd
    /// The start of a mapping.
    case mappingStart(anchor: String?, tag: String?, start: SourceLocation)
    /// The end of the innermost open mapping.
    case mappingEnd
}
