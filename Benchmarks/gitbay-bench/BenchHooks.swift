import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport

/// The webhooks the `watch` and `reaction` benchmarks set up on the simulator, as a user would.
enum BenchHooks {
    /// A hook on every repository to a port free now, before the watcher starts (so its start
    /// check finds them), with a secret in a file under `state`; answers the watcher's arguments
    /// that take the deliveries.
    static func hookEveryRepository(_ simulator: SimulatorProcess, state: URL) async throws -> [String] {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let secret = state.appendingPathComponent("webhook-secret")
        try Data("a benchmark's secret".utf8).write(to: secret)
        let port = try FreePort.pick()
        for repository in try await simulator.client().all(try RepoListCommand()) {
            let added = try await simulator.write(
                [
                    "webhook", "add", repository.path.description, "http://127.0.0.1:\(port)/hooks/gitbay",
                    "--secret", "-",
                ], stdin: "a benchmark's secret")
            guard added == 200 else {
                throw StateBenchmark.WrongAnswer(description: "webhook add \(repository.path) answered \(added)")
            }
        }
        return ["--listen", "127.0.0.1:\(port)", "--webhook-secret-file", secret.path]
    }

}
