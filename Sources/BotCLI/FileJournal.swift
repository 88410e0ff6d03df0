import Foundation
import RuleEngine
import Synchronization

/// The apply journal as a JSON-lines file, appended to and flushed line by line so a killed run
/// loses nothing it wrote.
///
/// Opening it takes a lock for as long as it stays open, so two runs never apply with the same
/// journal at once: each re-reads an item just before writing, but two runs between one's read
/// and its write could both comment. Opening also rotates a journal grown past a size, keeping
/// what the next run still needs.
final class FileJournal: ApplyJournal {
    /// Why a journal could not be opened.
    enum OpenError: Error {
        /// Another run holds the journal's lock.
        case busy
        case failed(any Error)
    }

    private let handle: Mutex<FileHandle>
    /// The lock file's handle: the lock is held while it is open and goes with the process.
    private let lock: FileHandle

    /// A journal bigger than this (16 MiB, some tens of thousands of writes) is rotated when opened.
    static let rotationSize = 16 << 20

    /// Opens `path` for appending, creating it and its folder when missing, once no other run
    /// holds it; a journal bigger than `rotationSize` bytes is rotated first (``rotate(_:)``).
    init(path: String, rotationSize: Int = FileJournal.rotationSize) throws(OpenError) {
        let url = URL(fileURLWithPath: path)
        self.path = path
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            lock = try Self.open(path + ".lock")
        } catch {
            throw .failed(error)
        }
        // A lock file of its own, never renamed, so rotation cannot move the lock away.
        guard flock(lock.fileDescriptor, LOCK_EX | LOCK_NB) == 0 else { throw .busy }
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > rotationSize { try Self.rotate(path) }
            let handle = try Self.open(path)
            try handle.seekToEnd()
            self.handle = Mutex(handle)
        } catch {
            throw .failed(error)
        }
    }

    /// Opens a file for writing, creating it readable by its owner only when missing.
    private static func open(_ path: String) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Moves the journal to `PATH.1` (replacing an older one) and starts a new one holding the
    /// entries of every rule and item with an action still unfinished, so the next run finds
    /// exactly what it would have found in the whole journal.
    ///
    /// Safe to interrupt at any point: the old journal is linked to `PATH.1` before the new one
    /// (written and flushed aside) replaces it in one rename.
    static func rotate(_ path: String) throws {
        let entries = Self.entries(at: path)
        let encoder = PlanJSON.encoder(pretty: false)
        var kept = Data()
        for entry in carriedOver(entries) {
            kept += try encoder.encode(entry) + Data("\n".utf8)
        }
        let fresh = path + ".new"
        try? FileManager.default.removeItem(atPath: fresh)
        guard FileManager.default.createFile(atPath: fresh, contents: kept, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fresh]) }
        try? FileManager.default.removeItem(atPath: path + ".1")
        try FileManager.default.linkItem(atPath: path, toPath: path + ".1")
        guard rename(fresh, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// The entries a rotated journal keeps: all of every rule and item that has an unfinished
    /// action, in their order, which is all ``UnfinishedAction/find(in:)`` reads.
    static func carriedOver(_ entries: [JournalEntry]) -> [JournalEntry] {
        let open = Set(UnfinishedAction.find(in: entries).map { "\($0.rule) \($0.item)" })
        return entries.filter { open.contains("\($0.rule) \($0.item)") }
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

    /// The journal's path, for messages.
    private let path: String

    /// Appends `entry` as one line and flushes it to disk; a failure names the file.
    func record(_ entry: JournalEntry) throws {
        do {
            let line = try PlanJSON.encoder(pretty: false).encode(entry) + Data("\n".utf8)
            try handle.withLock { handle in
                try handle.write(contentsOf: line)
                try handle.synchronize()
            }
        } catch {
            throw StateFileError(path: path, action: "write to", underlying: error)
        }
    }
}
