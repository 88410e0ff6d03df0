/// Creates a label or recolours it: `label set <repo> <label> [--color rrggbb]`.
///
/// Without a colour an existing colour is kept, so the command doubles as "make sure it exists"
/// before a rule adds the label. A name the organisation holds exits 1.
public struct LabelSetCommand: GitbayCommand, Hashable {
    public typealias Response = IssueLabel

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    /// The label name, 1–50 characters.
    public let name: String
    /// Six lowercase hex digits without `#`, `""` to clear the colour, or `nil` to keep it.
    public let color: String?

    /// Refuses a bad label name and a colour that is not six hex digits (with or without `#`) or empty.
    public init(repository: RepositoryPath, name: String, color: String? = nil) throws(GitbayCommandError) {
        self.repository = repository
        self.name = try CommandValidation.labelName(name)
        self.color = try color.map { (value) throws(GitbayCommandError) in try CommandValidation.color(value) }
    }

    public var argv: [String] {
        var argv = ["label", "set", repository.description, name]
        argv.appendOption("--color", color)
        return argv
    }
}
