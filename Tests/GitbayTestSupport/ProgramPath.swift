import Foundation

/// Finds a program on the test process's PATH, as a shell would, because ``ChildProcess`` starts
/// an absolute path only: a helper that needs an optional tool (chromium, python3) can then say
/// which one is missing and how to install it, before it starts anything.
enum ProgramPath {
    /// The absolute path of the executable file `name` in the first absolute PATH folder that has
    /// one, or nil when none has.
    static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":", omittingEmptySubsequences: true)
        for folder in folders where folder.hasPrefix("/") {
            let path = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: path)
            {
                return path
            }
        }
        return nil
    }
}
