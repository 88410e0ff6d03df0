import BuildsPlugin
import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// Offline derivation agrees with what the simulator serves for the same file, item by item.
///
/// `mr show` and `issue show` do not carry `updated_at`, so that one field is left out of the
/// comparison; everything else, derived stacks, combined checks and gates included, must be equal.
@Suite struct DerivationAgainstSimulatorTests {
    private func client(for simulator: SimulatorProcess) throws -> GitbayClient {
        let configuration = GitbayClientConfiguration(
            baseURL: simulator.baseURL, token: BearerToken(simulator.token), access: .readOnly,
            requestTimeout: .seconds(10), rateLimits: RateLimits(requestsPerMinute: 100_000))
        return try GitbayClient(configuration: configuration, transport: PlatformTransport.make())
    }

    @Test(arguments: ForgeFiles.all)
    func mergeRequestsAndIssuesMatchTheSimulator(_ url: URL) async throws {
        let state = try ForgeFiles.load(url).forgeState()
        try await SimulatorProcess.run(stateFile: url, options: ["--api-rate", "-1"]) { simulator in
            let client = try client(for: simulator)
            for repository in state.repositories {
                for record in repository.mergeRequests {
                    let number = record.mergeRequest.number
                    let served = try await client.send(
                        MergeRequestShowCommand(repository: repository.path, number: number))
                    var offline = record.mergeRequest
                    offline.updatedAt = nil
                    #expect(served.stackedOn == offline.stackedOn, "\(repository.path)!\(number) stacked_on")
                    #expect(served.stacked == offline.stacked, "\(repository.path)!\(number) stacked")
                    #expect(served.checksCombined == offline.checksCombined, "\(repository.path)!\(number) checks")
                    #expect(served.gates == offline.gates, "\(repository.path)!\(number) gates")
                    #expect(served == offline, "\(repository.path)!\(number)")
                }
                for record in repository.issues {
                    let number = record.issue.number
                    let served = try await client.send(IssueShowCommand(repository: repository.path, number: number))
                    var offline = record.issue
                    offline.updatedAt = nil
                    #expect(served == offline, "\(repository.path)#\(number)")
                }
            }
        }
    }
}
