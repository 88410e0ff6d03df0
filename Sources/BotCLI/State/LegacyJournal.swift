import Foundation
import RuleEngine

/// The JSON-lines journal of versions before the state database, imported into it once.
///
/// Its unfinished actions stay unfinished in the database, so the next run finishes them; the file
/// is then moved aside (`journal.jsonl.imported`), and nothing else changes for its user.
enum LegacyJournal {
    /// The entries of a journal file; lines that do not read as entries (a line cut short when a
    /// run was killed) are passed over.
    ///
    /// A file that cannot be read is an error, not an empty journal: its unfinished actions would
    /// be lost once it is moved aside.
    static func entries(at path: String) throws(StateFileError) -> [JournalEntry] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StateFileError(path: path, action: "read the old journal", underlying: error)
        }
        let decoder = PlanJSON.decoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(JournalEntry.self, from: $0) }
    }

    /// Imports the journal at `path`, if there is one, into `store` and moves it aside.
    ///
    /// The import is keyed by the file's path, size and time, so a run killed between the import
    /// and the move does not import it twice.
    /// - Returns: a note for the user when something was imported or could not be moved aside.
    static func importOnce(from path: String, into store: any StateStore) async throws -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = attributes[.size] as? Int ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let entries = try entries(at: path)
        let imported = try await store.importJournal(entries, key: "\(path) \(size) \(modified)")
        // A journal moved aside by an earlier import is the user's record too: never overwritten.
        var aside = path + ".imported"
        var copies = 0
        while FileManager.default.fileExists(atPath: aside) {
            copies += 1
            aside = "\(path).imported.\(copies)"
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: aside)
        } catch {
            return "note: imported \(path) but could not move it aside (\(StateFileError.reason(error))); "
                + "it will not be imported again"
        }
        return imported
            ? "note: imported \(entries.count) entries of \(path) into the state database; the file is now \(aside)"
            : nil
    }
}
