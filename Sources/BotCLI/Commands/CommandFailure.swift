import GitbayClient
import RuleEngine

/// A reason a command stops, with the exit code it stops with.
struct CommandFailure: Error {
    var message: String
    var code: BotExitCode

    init(_ message: String, code: BotExitCode) {
        self.message = message
        self.code = code
    }

    /// A forge error as the user should see it: rate limits and busy servers are "try again later".
    init(_ error: GitbayError) {
        var message = error.description
        if error.kind == .unauthorized {
            message += "; check the token (GITBAY_TOKEN or --token-file)"
        }
        self.init(message, code: error.isTemporary && error.kind != .serverError ? .temporaryFailure : .failure)
    }
}

extension CommandFailure {
    /// Rule paths that could not be read (exit 78, like invalid rules); a folder without rule files
    /// says that `command` has nothing to do, which is why it is an error at all.
    init(rulePaths error: any Error, command: String) {
        var message = "\(error)"
        if case RuleFileError.noRuleFiles = error { message += "; nothing to \(command)" }
        self.init(message, code: .invalidRules)
    }
}
