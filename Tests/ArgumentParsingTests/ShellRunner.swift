import Foundation
import GitbayTestSupport

/// Runs an installed shell on a generated script, so completion tests check real syntax and behaviour.
struct ShellRunner {
    /// The shell's executable.
    let executable: URL

    /// The named shell from the usual install locations, or nil when it is not installed.
    init?(_ name: String) {
        let candidates = ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"]
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        executable = URL(fileURLWithPath: path)
    }

    /// Whether the named shell is installed.
    static func isInstalled(_ name: String) -> Bool {
        ShellRunner(name) != nil
    }

    /// Writes `script` to a temporary file, runs the shell with `arguments` (where `{}` stands for the file's
    /// path), and returns its exit status and its output followed by its errors.
    func run(script: String, arguments: [String]) async throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try ChildProcess(
            executable.path, arguments.map { $0.replacingOccurrences(of: "{}", with: file.path) },
            environment: ProcessInfo.processInfo.environment)
        let ended = try await child.wait(timeout: .seconds(60))
        return (ended.status ?? -1, ended.outputText + ended.errorText)
    }
}
