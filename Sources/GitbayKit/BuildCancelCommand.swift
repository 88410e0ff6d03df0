/// Cancels a pending or running build: `build cancel <repo> <n>`.
///
/// The server never cancels superseded builds itself; a finished build exits 2, so re-check first.
public struct BuildCancelCommand: GitbayCommand, Hashable {
    public typealias Response = BuildCancelReply

    public static var effect: CommandEffect { .write }

    public let repository: RepositoryPath
    public let number: Int

    /// Refuses a number below 1.
    public init(repository: RepositoryPath, number: Int) throws(GitbayCommandError) {
        self.repository = repository
        self.number = try CommandValidation.number(number, field: "build number")
    }

    public var argv: [String] { ["build", "cancel", repository.description, String(number)] }
}
