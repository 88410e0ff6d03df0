import Foundation
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

    /// A forge error of a request to `server` as the user should see it: rate limits and busy
    /// servers are "try again later" (75), a server that cannot be reached is named with its URL
    /// (69), anything else (a refusal, the network breaking mid-exchange) is a failure (1).
    init(_ error: GitbayError, server: URL) {
        if error.isUnreachable {
            self.init(Self.unreachable(server, error.description), code: .unavailable)
            return
        }
        var message = error.description
        if error.kind == .unauthorized {
            message += "; check the token (GITBAY_TOKEN or --token-file)"
        }
        let temporary = error.kind == .rateLimited || error.kind == .busy
        self.init(message, code: temporary ? .temporaryFailure : .failure)
    }

    /// The message of a server that cannot be reached: its URL as shown (never a user or password
    /// the URL carries), why, and what to check.
    static func unreachable(_ server: URL, _ cause: String) -> String {
        "cannot reach the gitbay server at \(ForgeConnection.shown(server)): \(cause); check the URL (--url, "
            + "GITBAY_URL or url: in gitbay-bot.yml) and that the server is up"
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
