import Foundation
import RuleEngine
import Synchronization

/// The apply journal as a JSON-lines file, appended to and flushed line by line so a killed run
/// loses nothing it wrote.
final class FileJournal: ApplyJournal {
    private let handle: Mutex<FileHandle>

    /// Opens `path` for appending, creating it and its folder when missing.
    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.handle = Mutex(handle)
    }

    /// The entries of a journal file; lines that do not read as entries (a line cut short when a
    /// run was killed) are passed over.
    static func entries(at path: String) -> [JournalEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = PlanJSON.decoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(JournalEntry.self, from: $0) }
    }

    /// The default journal: `$XDG_STATE_HOME/gitbay-bot/journal.jsonl`, else under `~/.local/state`.
    static func defaultPath(environment: [String: String]) -> String {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { "\($0)/.local/state" } ?? ".")
        return "\(base)/gitbay-bot/journal.jsonl"
    }

    func record(_ entry: JournalEntry) {
        guard let line = try? PlanJSON.encoder(pretty: false).encode(entry) else { return }
        handle.withLock { handle in
            handle.write(line + Data("\n".utf8))
            try? handle.synchronize()
        }
    }
}
