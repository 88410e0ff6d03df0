import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

/// A watcher of `simulator` with the rules in `rules`, polling every second, a full pass an hour,
/// serving its page and `/metrics` on a free loopback port.
struct ServedWatcher {
    let bot: BotProcess
    let base: URL
    /// The folder of the rules it watches with.
    let rules: String

    init(
        _ simulator: SimulatorProcess, rules: String, environment: [String: String] = [:], _ extra: [String] = []
    ) async throws {
        let state = BotState()
        self.rules = rules
        bot = try BotProcess(
            [
                "watch", rules, "--state-dir", state.folder, "--interval", "1s", "--full-every", "1h",
                "--url", simulator.baseURL.absoluteString, "--rate-limit", "6000", "--listen", "127.0.0.1:0",
            ] + extra, environment: environment.merging(["GITBAY_TOKEN": simulator.token]) { mine, _ in mine })
        let said = try await bot.waitForError(containing: "status page at http")
        let line = try #require(said.split(separator: "\n").first { $0.contains("serving /metrics") })
        let address = try #require(line.split(separator: " ").last)
        base = try #require(URL(string: String(address)))
    }

    /// GET `path`: the status and the body as text.
    func get(_ path: String) async throws -> (status: Int, body: String, contentType: String?) {
        let response = try await PlatformTransport.make().send(
            HTTPRequest(
                method: .get, url: URL(string: path, relativeTo: base)!, headers: [], body: nil,
                timeout: .seconds(10)))
        return (response.status, String(decoding: response.body, as: UTF8.self), response.header("Content-Type"))
    }

    /// Waits (bounded) until the watcher has printed `count` pass lines (stdout has nothing else);
    /// answers them.
    @discardableResult
    func passes(_ count: Int, within seconds: Int = 30) async throws -> [Substring] {
        try await bot.passes(count, within: seconds)
    }

    func stop() async throws -> BotProcess.Ending {
        bot.send(SIGTERM)
        let end = try await bot.finish(within: 20)
        #expect(end.status == 143, "\(end.error)")
        return end
    }
}

/// `watch --listen` against the simulator: Prometheus's own parser reads /metrics, /healthz
/// follows the server down and back, a real browser loads the page, systemd's protocol is spoken
/// to a stand-in socket, and clients that misbehave cannot hold up a pass.
