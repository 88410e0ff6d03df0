/// Sets a commit status: `status set <repo> <sha> --context <c> --state <s> [--description <d>]`.
///
/// A merge request's head carries its statuses as `checks`, so a rule can say on the merge request
/// why it waits. gitbay refuses a `ci/` context (exit 4: its builds own `ci/<job>`) and any state
/// but the four below (exit 2), so both are refused here before anything is sent
/// (`internal/control/status.go` `runStatusSet`). An empty description is left out: gitbay stores
/// an absent one as empty.
public struct StatusSetCommand: GitbayCommand, Hashable {
    public typealias Response = StatusSetReply

    public static var effect: CommandEffect { .write }

    /// The states `status set` accepts; `skipped` is the builds' alone.
    public static let states: [CheckState] = [.pending, .success, .failure, .error]

    public let repository: RepositoryPath
    /// The commit, 4 to 40 hex digits.
    public let sha: String
    public let context: String
    public let state: CheckState
    public let description: String

    /// Refuses a blank or `ci/` context, a state gitbay does not accept and a commit that is not hex.
    public init(
        repository: RepositoryPath, sha: String, context: String, state: CheckState, description: String = ""
    ) throws(GitbayCommandError) {
        guard !context.allSatisfy(\.isWhitespace), !Self.isReserved(context) else {
            throw .invalidStatusContext(context)
        }
        guard Self.states.contains(state) else { throw .unsupportedStatusState(state.rawValue) }
        self.repository = repository
        self.sha = try CommandValidation.commit(sha)
        self.context = context
        self.state = state
        self.description = description
    }

    /// Whether gitbay keeps `context` for its builds: `ci/` in any case.
    public static func isReserved(_ context: String) -> Bool {
        context.lowercased().hasPrefix("ci/")
    }

    public var argv: [String] {
        var argv = ["status", "set", repository.description, sha, "--context", context, "--state", state.rawValue]
        if !description.isEmpty { argv += ["--description", description] }
        return argv
    }
}
