import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

/// The import of an older `journal.jsonl`: what cannot be read is not taken for an empty journal,
/// and what was moved aside before is kept.
@Suite struct LegacyJournalTests {
    /// One journal line: an action planned by `run`, so the file is a journal the import reads.
    private func line(run: String) throws -> String {
        let entry = JournalEntry(
            at: Date(timeIntervalSince1970: 1_800_000_000), run: run, phase: .planned, rule: "mark-stale",
            item: "krz/gitbay#31", action: "add-label", argv: ["issue", "label", "krz/gitbay", "31", "--add", "stale"])
        return String(decoding: try PlanJSON.encoder(pretty: false).encode(entry), as: UTF8.self) + "\n"
    }

    /// A journal the bot cannot read (here a folder in its place, which even root cannot read as a
    /// file) may hold unfinished actions: it is an error naming it, and it stays where it is.
    @Test func aJournalThatCannotBeReadIsAnErrorAndStaysInPlace() async throws {
        let path = Scratch.url("journal-\(UUID().uuidString).jsonl").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = InMemoryStateStore()
        let error = await #expect(throws: StateFileError.self) {
            try await LegacyJournal.importOnce(from: path, into: store)
        }
        #expect(
            error?.description.hasPrefix("cannot read the old journal \(path): ") == true,
            "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".imported"))
    }

    /// A second old journal at the same path (a backup restored, a second configuration) is
    /// imported too, and the first one's copy moved aside before is kept, not overwritten.
    @Test func aSecondJournalMovedAsideKeepsTheFirst() async throws {
        let path = Scratch.url("journal-\(UUID().uuidString).jsonl").path
        let store = InMemoryStateStore()
        let first = try line(run: "first")
        try first.write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await LegacyJournal.importOnce(from: path, into: store)
        let second = try line(run: "second") + line(run: "second")
        try second.write(toFile: path, atomically: true, encoding: .utf8)
        let note = try await LegacyJournal.importOnce(from: path, into: store)
        #expect(store.journal.map(\.run) == ["first", "second", "second"])
        #expect(try String(contentsOfFile: path + ".imported", encoding: .utf8) == first)
        #expect(try String(contentsOfFile: path + ".imported.1", encoding: .utf8) == second)
        #expect(note?.hasSuffix("the file is now \(path).imported.1") == true, "\(note ?? "")")
    }
}
