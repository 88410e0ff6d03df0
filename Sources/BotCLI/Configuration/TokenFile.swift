import ArgumentParsing
import Foundation
import GitbayClient

/// Reads the API token from a file, warning when others can read it.
///
/// A token is a password: a file the group or others may read (mode & 0o077) leaks it to every
/// account on the machine, so the bot says so on stderr, naming the file and never the token.
enum TokenFile {
    static func read(_ path: String, origin: String, console: any Console) throws(CommandFailure) -> BearerToken {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the token file \(path) (from \(origin))", code: .usage)
        }
        if let warning = permissionWarning(path: path) {
            console.write(warning + "\n", to: .error)
        }
        let token = BearerToken(String(decoding: data, as: UTF8.self))
        guard !token.isEmpty else { throw CommandFailure("the token file \(path) is empty", code: .usage) }
        return token
    }

    /// The warning for a secret's file (`what`: the token file) the group or others may read, or
    /// `nil` when only its owner can.
    static func permissionWarning(path: String, what: String = "token file") -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0
        else { return nil }
        return "warning: the \(what) \(path) can be read by other accounts (mode "
            + String(mode & 0o777, radix: 8) + "); run 'chmod 600 \(path)'"
    }
}
