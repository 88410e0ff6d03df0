import ArgumentParsing
import Foundation

/// The secret gitbay signs webhook deliveries with, read from a file.
///
/// gitbay takes a hook's secret on stdin and drops trailing line breaks (`internal/control/webhook.go`,
/// `runWebhookAdd`), so a file written by `echo` holds the same secret. It is a password: a file
/// the group or others may read is warned about, and the secret is never printed.
enum WebhookSecret {
    static func read(_ path: String, origin: String, console: any Console) throws(CommandFailure) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the webhook secret file \(path) (from \(origin))", code: .usage)
        }
        if let warning = TokenFile.permissionWarning(path: path, what: "webhook secret file") {
            console.write(warning + "\n", to: .error)
        }
        var bytes = [UInt8](data)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw CommandFailure("the webhook secret file \(path) is empty", code: .usage)
        }
        return bytes
    }
}
