import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import StateDatabase

/// A small file system of its own (a tmpfs), mounted for one test and unmounted after.
private struct SmallFileSystem: ~Copyable {
    let folder: String

    /// Mounts a tmpfs of `size` (as `mount` reads it: `64k`) on a new scratch folder.
    init(size: String) throws {
        folder = Scratch.url("mount-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder])
    }

    deinit {
        _ = try? Self.run("/bin/umount", [folder])
    }

    /// Makes the file system read-only.
    func makeReadOnly() throws {
        try Self.mount(["-o", "remount,ro", folder])
    }

    /// Fills what space is left with a file of zeros.
    func fill() {
        let handle =
            FileHandle(forWritingAtPath: folder + "/filler")
            ?? {
                _ = FileManager.default.createFile(atPath: folder + "/filler", contents: nil)
                return FileHandle(forWritingAtPath: folder + "/filler")
            }()
        let block = Data(count: 4096)
        while (try? handle?.write(contentsOf: block)) != nil {}
        try? handle?.close()
    }

    /// Whether this process may mount file systems: it must be root, and the container must allow it.
    static let isPermitted: Bool = {
        guard getuid() == 0, let probe = try? SmallFileSystem(size: "64k") else { return false }
        withExtendedLifetime(probe) {}
        return true
    }()

    private static func mount(_ arguments: [String]) throws {
        guard try run("/bin/mount", arguments) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A full disk and a read-only file system give one-line I/O errors, never a crash.
///
/// These need a file system small enough to fill, which only root may mount; elsewhere they are
/// skipped, with that reason in the test report.
@Suite(.enabled(if: SmallFileSystem.isPermitted, "mounting a 64 KiB tmpfs needs root in a container that allows it"))
struct FullDiskTests {
    @Test func recordingOnAFullDiskThrowsAnIOError() throws {
        // Room for a new database; then the filler takes the rest.
        let disk = try SmallFileSystem(size: "256k")
        let path = disk.folder + "/state.db"
        let store = try SQLiteStateStore(path: path, mode: .applying)
        try store.record(entry("r0", .intent, "close", item: "krz/app#500", at: 0))
        disk.fill()
        var failure: (index: Int, error: StateStoreError)?
        for index in 1...200 where failure == nil {
            do {
                try store.record(entry("r\(index)", .intent, "close", item: "krz/app#\(index)", at: Double(index)))
            } catch let error as StateStoreError {
                failure = (index, error)
            }
        }
        let (index, error) = try #require(failure)
        #expect(error == .io(path: path, reason: "cannot record a journal entry: the disk is full"))
        // What was recorded before still reads; the entry that failed is not there.
        #expect(try store.history(HistoryQuery(item: "krz/app#500")).count == 1)
        #expect(try store.history(HistoryQuery(item: "krz/app#\(index)")).isEmpty)
    }

    @Test func openingOnAFullDiskThrowsAnIOError() throws {
        let disk = try SmallFileSystem(size: "64k")
        disk.fill()
        let path = disk.folder + "/gitbay-bot/state.db"
        let error = try #require(throws: StateStoreError.self) { try SQLiteStateStore(path: path, mode: .applying) }
        guard case .io(path, let reason) = error else { throw Unexpected(error) }
        #expect(reason.contains("the disk is full"))
    }

    @Test func aReadOnlyFileSystemCanBeReadButNotAppliedWith() throws {
        let disk = try SmallFileSystem(size: "256k")
        let path = disk.folder + "/state.db"
        do {
            let store = try SQLiteStateStore(path: path, mode: .applying)
            try store.record(entry("r1", .intent, "close", at: 1))
        }
        try disk.makeReadOnly()
        let error = try #require(throws: StateStoreError.self) { try SQLiteStateStore(path: path, mode: .applying) }
        #expect(error == .io(path: path, reason: "cannot create its lock file \(path).lock: Read-only file system"))
        let elsewhere = disk.folder + "/other/state.db"
        let creating = try #require(throws: StateStoreError.self) {
            try SQLiteStateStore(path: elsewhere, mode: .applying)
        }
        #expect(
            creating
                == .io(path: elsewhere, reason: "cannot create its folder \(disk.folder)/other: Read-only file system"))
        #expect(try SQLiteStateStore(path: path, mode: .reading).history(HistoryQuery()).count == 1)
    }
}
