import GitbayClient

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
