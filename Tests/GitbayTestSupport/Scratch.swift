import Foundation

/// Where tests write files: one folder per test process, removed when the process exits, so that
/// test runs leave nothing behind in the machine's temporary folder.
public enum Scratch {
    /// The process's folder, made on first use.
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gitbay-bot-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return url
    }()

    /// The path of `name` inside the folder, where nothing is made yet.
    ///
    /// Callers keep names unique (a UUID in them).
    public static func url(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// A new, empty folder inside the folder, named `prefix` and a UUID.
    public static func newFolder(_ prefix: String) throws -> URL {
        let url = url("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
