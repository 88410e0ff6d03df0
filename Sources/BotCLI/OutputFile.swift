import Foundation

/// Writes the files a user asks for (`plan -o`, `--report`, `snapshot -o`) whole or not at all.
enum OutputFile {
    /// Writes `data` to `path` atomically, so a reader never sees half a file and a failure leaves
    /// any older file in place; a full disk or a read-only folder is one line and exit 74.
    ///
    /// - Parameter what: the file's role in the message, as in "the plan".
    static func write(_ data: Data, to path: String, what: String) throws(CommandFailure) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(
                "cannot write \(what) to \(path): \(StateFileError.reason(error))", code: .ioError)
        }
    }
}
