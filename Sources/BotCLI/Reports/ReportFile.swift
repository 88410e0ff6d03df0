import Foundation
import GitbayClient

/// Turns an error publishing a report on the forge into the command's failure.
enum ReportFile {
    /// A failure to publish (`what`) on `server`, with the forge's error mapped as every command maps it.
    static func failure(_ error: any Error, publishing what: String, on server: URL) -> CommandFailure {
        if let error = error as? GitbayError {
            let failure = CommandFailure(error, server: server)
            return CommandFailure("cannot update \(what): \(failure.message)", code: failure.code)
        }
        return CommandFailure("cannot update \(what): \(error)", code: .failure)
    }
}
