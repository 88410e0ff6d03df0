import Foundation
import Synchronization

/// How the tests start the project's Python scripts that need only Python's standard library:
/// the gitbay simulator, the forge generator and the transport test server.
///
/// A test run starts over two hundred simulators, and each paid for more than its own start: the
/// `python3` on the PATH may be a shim (pyenv's is a shell script that runs several programs), and
/// `site` imports what every `.pth` file of site-packages names, which these scripts never use. So
/// the interpreter `python3` resolves to is asked once a process and started directly, with `-S`:
/// on a 2-core machine a simulator then starts in about 110 ms of CPU instead of 240.
public enum StandardLibraryPython {
    /// The interpreter, once asked.
    private static let resolved = Mutex<String?>(nil)

    /// The executable and arguments that run `script` (a path) with `arguments`.
    public static func command(_ script: String, _ arguments: [String]) async throws -> (String, [String]) {
        (try await interpreter(), ["-S", script] + arguments)
    }

    /// The absolute path of the interpreter `python3` on the PATH runs, asked of it the first time.
    ///
    /// Two tests asking at once may both ask; they get the same answer.
    private static func interpreter() async throws -> String {
        if let known = resolved.withLock({ $0 }) { return known }
        let asked = try ChildProcess(
            "/usr/bin/env", ["python3", "-S", "-c", "import sys; print(sys.executable)"],
            environment: ProcessInfo.processInfo.environment, error: .discard)
        let ended = try await asked.wait(timeout: .seconds(30))
        let path = ended.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard ended.status == 0, path.hasPrefix("/") else { throw Failure.notFound(ended.outputText) }
        resolved.withLock { $0 = path }
        return path
    }

    /// `python3` did not name its own executable.
    public enum Failure: Error {
        case notFound(String)
    }
}
