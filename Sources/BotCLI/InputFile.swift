import Foundation

/// Reads the files a user hands the bot (`--snapshot FILE`, `apply PLAN`), saying why one cannot
/// be read.
enum InputFile {
    /// The bytes of the file at `path`; one that cannot be read (missing, a folder, unreadable) is
    /// a usage error (64) that names it and the system's reason: "cannot read the snapshot
    /// forge.json: no such file or folder".
    ///
    /// - Parameter what: the file's role in the message, as in "the snapshot".
    static func read(_ path: String, what: String) throws(CommandFailure) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read \(what) \(path): \(StateFileError.reason(error))", code: .usage)
        }
    }
}
