import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

/// The import of an older `journal.jsonl`: what cannot be read is not taken for an empty journal.
@Suite struct LegacyJournalTests {
    /// A journal the bot cannot read (here a folder in its place, which even root cannot read as a
    /// file) may hold unfinished actions: it is an error naming it, and it stays where it is.
    @Test func aJournalThatCannotBeReadIsAnErrorAndStaysInPlace() throws {
        let path = Scratch.url("journal-\(UUID().uuidString).jsonl").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = InMemoryStateStore()
        let error = #expect(throws: StateFileError.self) { try LegacyJournal.importOnce(from: path, into: store) }
        #expect(
            error?.description.hasPrefix("cannot read the old journal \(path): ") == true,
            "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".imported"))
    }
}
