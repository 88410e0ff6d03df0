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
        now: String = "2026-11-29T12:00:00.000Z"
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path,
            "--repos", "\(repos)", "--issues", "\(issues)", "--mrs", "\(mergeRequests)", "--builds", "\(builds)",
            "--seed", "\(seed)", "--now", now, "-o", url.path,
        ]
        try process.run()
        process.waitWithoutRunLoop()
        guard process.terminationStatus == 0 else { throw Failure(status: process.terminationStatus) }
    }

    /// `generate_forge.py` exited with an error.
    public struct Failure: Error {
        public var status: Int32
    }
}
