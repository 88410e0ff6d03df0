import Foundation

/// A tiny tmpfs mounted for one test: a disk that fills after a few KiB, or one that is read-only,
/// so the bot's handling of ENOSPC and EROFS is tried for real instead of imagined.
///
/// Mounting needs root on Linux, as in CI and on the developers' machines here; elsewhere (macOS
/// included) the tests that use it are disabled with ``isAvailable`` and say so. It calls
/// `mount(2)` itself: no child process.
public struct SmallFileSystem: Sendable {
    /// Where it is mounted.
    public let url: URL

    /// Whether this process may mount one (it runs as root and `mount` works).
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? SmallFileSystem(kilobytes: 16) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` under the scratch folder; `readOnly` mounts it read-only.
    public init(kilobytes: Int, readOnly: Bool = false) throws {
        url = Scratch.url("tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #if os(Linux)
        guard mount("tmpfs", url.path, "tmpfs", readOnly ? UInt(MS_RDONLY) : 0, "size=\(kilobytes)k") == 0 else {
            throw MountFailed(path: url.path)
        }
        #else
        throw MountFailed(path: url.path)
        #endif
    }

    /// Fills what space is left with a file of zeros, block by block until the disk says no.
    public func fill() {
        let filler = url.appendingPathComponent("filler").path
        _ = FileManager.default.createFile(atPath: filler, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: filler) else { return }
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
    }

    /// Makes it read-only, keeping what it holds.
    ///
    /// The kernel refuses (EBUSY) while a file on it is open for writing, so a failure names the
    /// files this process still holds there: a store not closed before the remount, say.
    public func makeReadOnly() throws {
        #if os(Linux)
        guard mount("tmpfs", url.path, nil, UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            let reason = String(cString: strerror(errno))
            let open = OpenFiles.under(url.path).map { $0.replacingOccurrences(of: url.path + "/", with: "") }
            throw MountFailed(
                path: url.path,
                detail: "read-only: \(reason); open here: \(open.isEmpty ? "none" : open.joined(separator: ", "))")
        }
        #else
        throw MountFailed(path: url.path)
        #endif
    }

    /// Unmounts it; what the test wrote there goes with it.
    public func unmount() {
        #if os(Linux)
        _ = umount2(url.path, Int32(MNT_DETACH))
        #endif
        try? FileManager.default.removeItem(at: url)
    }

    private struct MountFailed: Error, CustomStringConvertible {
        var path: String
        /// What was asked and why it failed, when the mount was a remount.
        var detail: String?
        var description: String { "cannot mount a tmpfs at \(path)" + (detail.map { " \($0)" } ?? "") }
    }
}
