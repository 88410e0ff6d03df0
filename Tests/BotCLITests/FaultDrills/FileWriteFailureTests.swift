import Foundation
import GitbayTestSupport
import StateDatabase
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path

/// Every file the bot writes, on a disk that is full or read-only: one line naming the file, exit
/// 74, and no crash; the state database's failure also stops every write.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root"))
struct FileWriteFailureTests {
    @Test func aPlanFileOnAFullDiskIsOneLineAndExit74() async throws {
        let disk = try SmallFileSystem(kilobytes: 64)
        defer { disk.unmount() }
        disk.fill()
        let path = disk.url.appendingPathComponent("plan.json").path
        let result = await runBot(["plan", rules, "--snapshot", demo.path, "-o", path])
        #expect(result.code == 74)
        #expect(result.error == "error: cannot write the plan to \(path): no space left on the device\n")
        #expect(result.output.contains("11 commands pending"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aReportInAReadOnlyFolderIsOneLineAndExit74() async throws {
        let disk = try SmallFileSystem(kilobytes: 64, readOnly: true)
        defer { disk.unmount() }
        let path = disk.url.appendingPathComponent("report.md").path
        let result = await runBot(["run", rules, "--snapshot", demo.path, "--report", path])
        #expect(result.code == 74)
        #expect(result.error == "error: cannot write the report to \(path): the file system is read-only\n")
    }

    @Test func aSnapshotOnAFullDiskIsOneLineAndExit74() async throws {
        let disk = try SmallFileSystem(kilobytes: 64)
        defer { disk.unmount() }
        disk.fill()
        let path = disk.url.appendingPathComponent("forge.json").path
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let result = await runBot(
                ["snapshot", "--scope", "owner:krz", "-o", path, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 74, "\(result.error)")
            #expect(result.error == "error: cannot write the snapshot to \(path): no space left on the device\n")
        }
    }

    /// The state database on a full disk, made before the disk filled or not: one line naming
    /// it, exit 74, and not one write sent.
    @Test(arguments: [false, true])
    func aStateDatabaseOnAFullDiskStopsTheRunBeforeAnyWrite(existing: Bool) async throws {
        let disk = try SmallFileSystem(kilobytes: 256)
        defer { disk.unmount() }
        let options = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let path = StateLocation.database(disk.url.path, server: simulator.baseURL, account: "triage-bot")
            if existing {
                // Closed before the disk fills: a store merely dropped closes when its queue lets
                // go, a moment later, and its WAL, checkpointed and removed then, would free the
                // space the run must not find (the test failed now and then under load so).
                let store = try SQLiteStateStore(
                    path: path,
                    identity: StoreIdentity(server: simulator.baseURL.absoluteString, account: "triage-bot"),
                    mode: .applying)
                await store.close()
            }
            disk.fill()
            let result = await runBot(
                [
                    "run", rules, "--state-dir", disk.url.path, "--url", simulator.baseURL.absoluteString, "--now",
                    "2026-11-29T12:00:00.000Z", "--rate-limit", "6000",
                ],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(result.code == 74, "\(result.output)\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
            #expect(result.error.hasPrefix("error: cannot use the state database \(path): "), "\(result.error)")
            #expect(
                result.error.contains("the disk is full") || result.error.contains("No space left on device"),
                "\(result.error)")
            let sent = try simulator.journalEntries()
            #expect(sent.isEmpty)
        }
    }
}

/// Standard output that cannot be written loses the text, not the run.
@Suite struct UnwritableOutputTests {
    @Test func outputToAFullDeviceIsNoCrash() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        let schema = try ChildProcess(
            BotProcess.executable.path, ["schema"], environment: BotProcess.environment([:]),
            output: .file("/dev/full"), error: .discard)
        let ended = try await schema.wait(timeout: .seconds(60))
        #expect(ended.signal == nil)
        #expect(ended.status == 0)
    }
}
