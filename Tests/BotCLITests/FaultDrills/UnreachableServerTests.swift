import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let rules = root.appendingPathComponent("rules").path
private let demo = root.appendingPathComponent("examples/demo-forge.json")
/// A token of the right form; no request gets far enough for it to matter.
private let token = "gb_" + String(repeating: "0", count: 64)

/// A server the bot cannot reach is exit 69 with its URL and the cause, within the few seconds of
/// the client's retries, never the "run again later" of 75 that a unit counts as a success: a
/// mistyped URL must fail where someone sees it.
@Suite struct UnreachableServerTests {
    /// Runs `arguments` against `url`, expects exit 69 within the client's bounded retries and a
    /// message naming `shown` (the URL without its user and password) and `cause`.
    private func expectUnreachable(
        _ arguments: [String], url: String, shown: String, cause: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let started = ContinuousClock.now
        let result = await runBot(
            arguments + ["--url", url, "--state-dir", BotState().folder], environment: ["GITBAY_TOKEN": token])
        let elapsed = ContinuousClock.now - started
        #expect(result.code == 69, "\(result.error)", sourceLocation: sourceLocation)
        // The last line; notes of the client's waits before its retries may come first.
        let last = result.error.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            last.hasPrefix("error: cannot reach the gitbay server at \(shown): whoami: \(cause)"),
            "\(result.error)", sourceLocation: sourceLocation)
        #expect(
            last.hasSuffix("; check the URL (--url, GITBAY_URL or url: in gitbay-bot.yml) and that the server is up"),
            "\(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("s3cret"), sourceLocation: sourceLocation)
        // Five attempts with backoff (0.5 s, 1 s, 2 s, 4 s at most, 8 s in all): seconds, not
        // minutes, with room for a machine busy with other suites.
        #expect(elapsed < .seconds(60), "took \(elapsed)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, sourceLocation: sourceLocation)
    }

    /// Nothing listens on the discard port: the connection is refused.
    @Test(arguments: ["plan", "run"])
    func aRefusedConnectionIsExit69NamingTheURLWithoutItsPassword(command: String) async {
        await expectUnreachable(
            [command, rules], url: "http://bot:s3cret@127.0.0.1:9", shown: "http://127.0.0.1:9",
            cause: "cannot connect: ")
    }

    /// `.invalid` never resolves (RFC 2606).
    @Test func aNameThatDoesNotResolveIsExit69() async {
        await expectUnreachable(
            ["plan", rules], url: "https://gitbay.invalid", shown: "https://gitbay.invalid", cause: "cannot connect: ")
    }

    /// A server that goes away in the middle of applying: the write in flight is lost with its
    /// connection, and once the server cannot be reached (the next request, after its retries)
    /// nothing more is sent, and the run is exit 69 too, not the "incomplete" 3 a unit lets pass.
    @Test func aServerThatGoesAwayMidRunStopsItWithExit69() async throws {
        let options = [
            "--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000", "--fault", "hold,method=POST",
        ]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            async let run = runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
            #expect(try await eventually { try await simulator.stats()["held"] as? Int == 1 })
            await simulator.stopServing()
            let result = await run
            #expect(result.code == 69, "\(result.output)\(result.error)")
            #expect(
                result.error.contains(
                    "\nerror: stopped: cannot reach the gitbay server at \(simulator.baseURL.absoluteString): "),
                "\(result.error)")
            #expect(result.output.contains("not-run"), "\(result.output)")
            // The one write sent, lost with the server; none after it.
            let history = try await state.history(server: simulator.baseURL)
            #expect(history.map { $0["outcome"] as? String } == ["failed"], "\(history)")
        }
    }

    /// https:// to a server that speaks plain HTTP: the TLS handshake fails, and is not retried.
    @Test func aTLSFailureIsExit69() async throws {
        try await SimulatorProcess.run(stateFile: demo) { simulator in
            let url = try #require(
                URL(string: simulator.baseURL.absoluteString.replacingOccurrences(of: "http:", with: "https:")))
            await expectUnreachable(
                ["plan", rules], url: url.absoluteString, shown: url.absoluteString, cause: "TLS failed: ")
        }
    }
}
