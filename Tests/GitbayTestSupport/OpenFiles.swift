import Foundation

/// The files this process holds open, read from `/proc/self/fd`: what keeps a file system busy.
///
/// A remount read-only fails (EBUSY) while any file on it is open for writing, and a lock stays
/// taken while its descriptor is open; a test names the culprits instead of guessing.
public enum OpenFiles {
    /// Whether the process's descriptors can be listed (Linux, with `/proc` mounted).
    public static let areListed = FileManager.default.fileExists(atPath: "/proc/self/fd")

    /// The paths of this process's open descriptors at or under `path`, sorted.
    public static func under(_ path: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                target == path || target.hasPrefix(path + "/")
            else { return nil }
            return target
        }.sorted()
    }
}
