import Foundation
import GitbayTestSupport
import Testing

/// A server that never stops sending: the bot must stop reading at its cap, not at the end of memory.
@Suite struct EndlessBodyTests {
    static let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
    static let limit = 200 * 1024 * 1024

    @Test func planAgainstAnEndlessBodyStaysUnder200MBAndNamesTheCap() async throws {
        let outcome = try await TransportTestServer.run { server in
            try await MeasuredBotProcess(limit: Self.limit).run(
                ["plan", Self.rules, "--url", server.url("/endless").absoluteString],
                environment: ["GITBAY_TOKEN": "gb_endless", "HOME": Scratch.folder.path])
        }
        #expect(!outcome.stoppedByWatchdog)
        #expect(outcome.peakResidentBytes < Self.limit, "peak \(outcome.peakResidentBytes / 1_048_576) MiB")
        #expect(outcome.exitStatus == 1, "\(outcome.error)")
        #expect(outcome.error.contains("passed the 32 MiB cap"), "\(outcome.error)")
    }
}
