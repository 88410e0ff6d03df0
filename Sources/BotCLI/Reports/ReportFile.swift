import Foundation
import GitbayClient

/// Writes reports to files and turns a publishing error into the command's failure.
enum ReportFile {
    /// Writes `text` to `path` atomically, so a CI step reading it never sees half a report.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("cannot write the report to \(path): \(error.localizedDescription)", code: .failure)
        }
    }

    /// A failure to publish (`what`), with the forge's error mapped as every command maps it.
    static func failure(_ error: any Error, publishing what: String) -> CommandFailure {
        if let error = error as? GitbayError {
            let failure = CommandFailure(error)
            return CommandFailure("cannot update \(what): \(failure.message)", code: failure.code)
        }
        return CommandFailure("cannot update \(what): \(error)", code: .failure)
    }
}
