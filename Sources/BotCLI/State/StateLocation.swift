import Foundation

/// Where the state databases live: one file per server and account, under the state folder.
///
/// A journal only means something against the forge and account it was written for, so each pair
/// has its own file: `STATE_DIR/<host>[_<port>]/<account>.sqlite3`.
enum StateLocation {
    /// `$XDG_STATE_HOME/gitbay-bot`, else `~/.local/state/gitbay-bot`.
    static func defaultFolder(environment: [String: String]) -> String {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { "\($0)/.local/state" } ?? ".")
        return "\(base)/gitbay-bot"
    }

    /// The folder of one server's databases: its host, and its port when it names one.
    static func serverFolder(_ folder: String, server: URL) -> String {
        let host = safe(server.host ?? "server")
        return "\(folder)/" + (server.port.map { "\(host)_\($0)" } ?? host)
    }

    /// The database of `account` on `server`.
    static func database(_ folder: String, server: URL, account: String) -> String {
        "\(serverFolder(folder, server: server))/\(safe(account)).sqlite3"
    }

    /// The databases on record for `server`, sorted: one per account that has applied there.
    static func databases(_ folder: String, server: URL) -> [String] {
        let serverFolder = serverFolder(folder, server: server)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: serverFolder)) ?? []
        return names.filter { $0.hasSuffix(".sqlite3") }.sorted().map { "\(serverFolder)/\($0)" }
    }

    /// `name` as one file-name component: no separators, no leading dot.
    private static func safe(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\\" ? "_" : $0 })
        return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }
}
