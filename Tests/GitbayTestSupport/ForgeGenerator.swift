import Foundation

/// `Tests/Simulator/generate_forge.py`, run from Swift: a realistic forge-state file of a given
/// size, the same for the same arguments, for tests and benchmarks that need more than a fixture.
public enum ForgeGenerator {
    /// The generator script of this checkout.
    public static let script = SimulatorProcess.repositoryRoot.appendingPathComponent(
        "Tests/Simulator/generate_forge.py")

    /// Writes a forge with `repos` repositories and the given items per repository to `url`.
    public static func write(
        to url: URL, repos: Int, issues: Int, mergeRequests: Int, builds: Int, seed: Int = 1,
        now: String = "2026-11-29T12:00:00.000Z", rulesFiles: Int = 0
    ) async throws {
        let (python, arguments) = try await StandardLibraryPython.command(
            script.path,
            [
                "--repos", "\(repos)", "--issues", "\(issues)", "--mrs", "\(mergeRequests)", "--builds", "\(builds)",
                "--seed", "\(seed)", "--now", now, "--rules-files", "\(rulesFiles)", "-o", url.path,
            ])
        let generator = try ChildProcess(python, arguments, environment: ProcessInfo.processInfo.environment)
        let ended = try await generator.wait(timeout: .seconds(300))
        guard ended.status == 0 else { throw Failure(status: ended.status, error: ended.errorText) }
    }

    /// `generate_forge.py` exited with an error.
    public struct Failure: Error {
        public var status: Int32?
        public var error: String
    }
}
