/// What the condition checker needs to know of a field: its name and type.
public struct FieldSpec: Sendable, Hashable {
    /// The dotted name rules use, such as `last_comment.author`.
    public var name: String
    public var type: FieldType

    public init(name: String, type: FieldType) {
        self.name = name
        self.type = type
    }
}
