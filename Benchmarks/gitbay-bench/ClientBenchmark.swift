import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport

/// `gitbay-bench client`: 300 reads and 30 writes through the client against the simulator at
/// gitbay's default limits, reporting 429s drawn and wall time against what the limits allow.
///
/// The simulator and the client share a time scale, so the run takes seconds instead of the two
/// minutes the real limits would; `--time-scale 1` runs it at real speed.
enum ClientBenchmark {
    static let summary = "300 reads + 30 writes at gitbay's default limits: 429s drawn, wall time vs the bound"

    static func run(_ arguments: [String]) async throws {
        var scale = 10.0
        var reads = 300
        var writes = 30
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--time-scale": scale = Double(words.popFirst() ?? "") ?? scale
            case "--reads": reads = Int(words.popFirst() ?? "") ?? reads
            case "--writes": writes = Int(words.popFirst() ?? "") ?? writes
            default:
                print("usage: gitbay-bench client [--time-scale 10] [--reads 300] [--writes 30]")
                return
            }
        }
        let (readCount, writeCount) = (reads, writes)
        let limits = RateLimits(timeScale: scale)
        let state = SimulatorProcess.repositoryRoot.appendingPathComponent("Tests/Simulator/fixtures/small-forge.json")
        try await SimulatorProcess.run(stateFile: state, options: ["--time-scale", String(scale)]) { simulator in
            let client = try GitbayClient(
                configuration: GitbayClientConfiguration(
                    baseURL: simulator.baseURL, token: BearerToken(simulator.token), rateLimits: limits),
                transport: PlatformTransport.make())
            let repository = try RepositoryPath("krz/gitbay")
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let show = try IssueShowCommand(repository: repository, number: 214)
                    for _ in 0..<readCount { _ = try await client.send(show) }
                }
                group.addTask {
                    for index in 0..<writeCount {
                        let change =
                            index.isMultiple(of: 2)
                            ? try IssueLabelCommand(repository: repository, number: 213, add: ["bench"])
                            : try IssueLabelCommand(repository: repository, number: 213, remove: ["bench"])
                        _ = try await client.send(change)
                    }
                }
                try await group.waitForAll()
            }
            let wall = (ContinuousClock.now - start).seconds
            let bound = lowerBound(reads: reads, writes: writes, limits: limits)
            let stats = try await simulator.stats()
            let served429 = (stats["rate_limited"] as? NSNumber)?.intValue ?? -1
            let metrics = client.metrics
            let ratio = wall / bound
            print(
                """
                client benchmark: \(reads) reads + \(writes) writes, time scale \(scale)
                  requests sent        \(metrics.requests) (\(metrics.reads) reads, \(metrics.writes) writes, \
                \(metrics.retries) retries)
                  429s drawn           \(metrics.rateLimitedResponses) (simulator counted \(served429))
                  wall time            \(String(format: "%.2f", wall)) s
                  limits allow         \(String(format: "%.2f", bound)) s at best
                  ratio                \(String(format: "%.3f", ratio))
                  pacing wait          \(String(format: "%.2f", metrics.pacingWait.seconds)) s
                  verdict              \(metrics.rateLimitedResponses == 0 && served429 == 0 && ratio <= 1.10 ? "PASS" : "FAIL") \
                (0 429s and within 10% of the bound)
                """)
        }
    }

    /// The least time the server's buckets allow for the mix, sent as fast as they refill: every
    /// request spends the request bucket, every write the write bucket too, each starting full.
    static func lowerBound(reads: Int, writes: Int, limits: RateLimits) -> Double {
        let scale = limits.timeScale
        let requestRate = limits.requestsPerMinute / 60 * scale
        let writeRate = limits.writesPerMinute / 60 * scale
        let requestBound = max(0, Double(reads + writes) - limits.requestsPerMinute) / requestRate
        let writeBound = max(0, Double(writes) - limits.writesPerMinute) / writeRate
        return max(requestBound, writeBound)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
