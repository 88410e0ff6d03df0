import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import StateDatabase

/// A full disk and a read-only file system give one-line I/O errors, never a crash.
///
/// These need a file system small enough to fill, which only root may mount; elsewhere they are
/// skipped, with that reason in the test report.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root in a container that allows it"))
struct FullDiskTests {
    @Test func recordingOnAFullDiskThrowsAnIOError() async throws {
        // Room for a new database; then the filler takes the rest.
        let disk = try SmallFileSystem(kilobytes: 256)
        defer { disk.unmount() }
        let path = disk.url.path + "/state.db"
        let store = try SQLiteStateStore(path: path, mode: .applying)
        try await store.record(entry("r0", .intent, "close", item: "krz/app#500", at: 0))
        disk.fill()
        var failure: (index: Int, error: StateStoreError)?
        for index in 1...200 where failure == nil {
            do {
                try await store.record(
                    entry("r\(index)", .intent, "close", item: "krz/app#\(index)", at: Double(index)))
            } catch let error as StateStoreError {
                failure = (index, error)
            }
        }
        let (index, error) = try #require(failure)
        #expect(error == .io(path: path, reason: "cannot record a journal entry: the disk is full"))
        // What was recorded before still reads; the entry that failed is not there.
        #expect(try await store.history(HistoryQuery(item: "krz/app#500")).count == 1)
        #expect(try await store.history(HistoryQuery(item: "krz/app#\(index)")).isEmpty)
    }

    @Test func openingOnAFullDiskThrowsAnIOError() async throws {
        let disk = try SmallFileSystem(kilobytes: 64)
        defer { disk.unmount() }
        disk.fill()
        let path = disk.url.path + "/gitbay-bot/state.db"
        let error = try #require(throws: StateStoreError.self) { try SQLiteStateStore(path: path, mode: .applying) }
        guard case .io(path, let reason) = error else { throw Unexpected(error) }
        #expect(reason.contains("the disk is full"))
    }

    @Test func aReadOnlyFileSystemCanBeReadButNotAppliedWith() async throws {
        let disk = try SmallFileSystem(kilobytes: 256)
        defer { disk.unmount() }
        let path = disk.url.path + "/state.db"
        // Closed, not only dropped: the store's queue may hold the last reference a moment longer,
        // with the files open for writing, and the remount is refused (EBUSY) meanwhile.
        let store = try SQLiteStateStore(path: path, mode: .applying)
        try await store.record(entry("r1", .intent, "close", at: 1))
        await store.close()
        try disk.makeReadOnly()
        let error = try #require(throws: StateStoreError.self) { try SQLiteStateStore(path: path, mode: .applying) }
        #expect(error == .io(path: path, reason: "cannot create its lock file \(path).lock: Read-only file system"))
        let elsewhere = disk.url.path + "/other/state.db"
        let creating = try #require(throws: StateStoreError.self) {
            try SQLiteStateStore(path: elsewhere, mode: .applying)
        }
        #expect(
            creating
                == .io(
                    path: elsewhere, reason: "cannot create its folder \(disk.url.path)/other: Read-only file system"))
        #expect(try await SQLiteStateStore(path: path, mode: .reading).history(HistoryQuery()).count == 1)
    }
}
