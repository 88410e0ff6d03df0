import Foundation
import GitbayTestSupport
import Testing

private let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path

/// A pipe holds 64 KiB: a child printing more than that blocks until its parent reads, so `BotProcess`
/// must read while the child runs, not after it exits.
@Suite struct BotProcessTests {
    @Test func aChildPrintingMoreThanAPipeHoldsOnStandardOutputFinishes() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        let forge = try idleForge(issues: 50)
        defer { try? FileManager.default.removeItem(at: forge) }
        let child = try BotProcess(["plan", rules, "--snapshot", forge.path, "--format", "json"], environment: [:])
        let ended = try await child.finish()
        #expect(ended.reason == .exit && ended.status == 0, "\(ended.error)")
        #expect(ended.output.utf8.count > 64 << 10)
        let plan = try JSONSerialization.jsonObject(with: Data(ended.output.utf8)) as? [String: Any]
        #expect(plan?["entries"] is [Any])
    }

    @Test func aChildPrintingMoreThanAPipeHoldsOnStandardErrorFinishes() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        let file = Scratch.url("broken-\(UUID().uuidString).yml")
        let broken = (0..<1_000).map { "  - {name: r\($0), on: issues}\n" }.joined()
        try Data(("scope: owner:krz\nrules:\n" + broken).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try BotProcess(["check", file.path], environment: [:])
        let ended = try await child.finish()
        #expect(ended.reason == .exit && ended.status == 78, "\(ended.output)")
        #expect(ended.error.utf8.count > 64 << 10)
        #expect(ended.error.hasSuffix("1 file: 1000 errors\n"), "\(ended.error.suffix(200))")
    }
}
