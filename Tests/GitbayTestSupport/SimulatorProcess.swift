import Foundation
import GitbayClient
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running gitbay simulator (`Tests/Simulator/gitbay_sim.py`) on 127.0.0.1 at a port it chose.
///
/// End-to-end tests start one per test with ``SimulatorProcess/run(state:options:_:)``, which stops
/// it (SIGTERM, then SIGKILL) whatever the test body does, so no simulator outlives its test. It
/// runs through ``ChildProcess``: it inherits no descriptor of the test process, its output is
/// drained while it runs, and every wait for it is bounded.
public final class SimulatorProcess: @unchecked Sendable {
    /// The simulator's base URL, as it printed it on its first line.
    public let baseURL: URL
    /// The token that authenticates as the forge state's `me`.
    public let token: String
    /// The file the simulator journals every write to.
    public let journal: URL
    /// The running simulator; another one after ``serveAgain()``.
    private let process: Mutex<ChildProcess?>
    private let directory: URL
    /// The interpreter and the simulator's command line, to start it again.
    private let python: String
    private let arguments: [String]

    /// The repository's root folder, found from this file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private init(
        baseURL: URL, token: String, journal: URL, process: ChildProcess, directory: URL, python: String,
        arguments: [String]
    ) {
        self.baseURL = baseURL
        self.token = token
        self.journal = journal
        self.process = Mutex(process)
        self.directory = directory
        self.python = python
        self.arguments = arguments
    }

    /// Starts a simulator serving `state` (forge-state JSON text), runs `body`, then stops it.
    ///
    /// - Parameter options: further command-line options, such as `["--fault", "429,times=1"]`.
    public static func run<T>(
        state: String, options: [String] = [], _ body: (SimulatorProcess) async throws -> T
    ) async throws -> T {
        try await stopping(try await start(state: state, options: options), with: { await $0.stop() }, body)
    }

    /// Starts a simulator serving the forge-state file at `statePath`, runs `body`, then stops it.
    public static func run<T>(
        stateFile statePath: URL, options: [String] = [], _ body: (SimulatorProcess) async throws -> T
    ) async throws -> T {
        try await run(state: String(decoding: try Data(contentsOf: statePath), as: UTF8.self), options: options, body)
    }

    private static func start(state: String, options: [String]) async throws -> SimulatorProcess {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gitbay-sim-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stateFile = directory.appendingPathComponent("state.json")
        try Data(state.utf8).write(to: stateFile)
        let journal = directory.appendingPathComponent("journal.jsonl")
        let token = "gb_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()

        do {
            let (python, arguments) = try await StandardLibraryPython.command(
                repositoryRoot.appendingPathComponent("Tests/Simulator/gitbay_sim.py").path,
                ["--state", stateFile.path, "--token", token, "--journal", journal.path] + options)
            let (process, url) = try await launch(python, arguments + ["--port", "0"])
            return SimulatorProcess(
                baseURL: url, token: token, journal: journal, process: process, directory: directory,
                python: python, arguments: arguments)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts the simulator with `arguments` and waits (bounded) for the URL it prints first.
    private static func launch(_ python: String, _ arguments: [String]) async throws -> (ChildProcess, URL) {
        // The simulator's standard input is a pipe only this process writes: if the test process
        // dies, however it dies, the simulator reads end of file and stops.
        let process = try ChildProcess(
            python, arguments + ["--exit-with-stdin"], environment: ProcessInfo.processInfo.environment,
            input: .pipe, error: .discard)
        let line = try? await process.firstLine(timeout: .seconds(30))
        guard let line, let url = URL(string: line.trimmingCharacters(in: .whitespaces)) else {
            await process.stop()
            throw SimulatorError.didNotStart(arguments: [python] + arguments)
        }
        return (process, url)
    }

    /// Stops the simulator's process, as a server that goes down does.
    ///
    /// Connections are refused until ``serveAgain()``; its files stay.
    public func stopServing() async {
        guard let running = process.withLock({ $0.take() }) else { return }
        await running.stop()
    }

    /// Starts the simulator again on the same port, from the forge state it started with (what was
    /// written since is gone, and the feed starts afresh), as a server restored from a backup.
    public func serveAgain() async throws {
        let port = baseURL.port ?? 0
        var lastError: (any Error)?
        // The port was just freed; another program may take it first, which this waits out
        // (bounded), and reports if it keeps it.
        for _ in 0..<3 {
            _ = try await eventually(within: 10) { FreePort.canListen(on: port) }
            do {
                let (started, _) = try await Self.launch(python, arguments + ["--port", "\(port)"])
                process.withLock { $0 = started }
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? SimulatorError.didNotStart(arguments: [python] + arguments)
    }

    /// The writes the simulator journaled, one JSON object a line, in order.
    public func journalEntries() throws -> [[String: Any]] {
        let text = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw SimulatorError.badJournalLine(String(line))
            }
            return object
        }
    }

    /// The simulator's counters (`GET /_sim/stats`): requests, reads, writes, `rate_limited`...
    public func stats() async throws -> [String: Any] {
        try await simulatorRequest(.get, "/_sim/stats", body: nil)
    }

    /// The forge as the simulator holds it now (`GET /_sim/state`), in the forge-state format.
    public func forge() async throws -> [String: Any] {
        try await simulatorRequest(.get, "/_sim/state", body: nil)
    }

    /// Changes the simulator's behaviour mid-test (`POST /_sim/control`), such as `{"revoke":true}`.
    public func control(_ json: String) async throws {
        _ = try await simulatorRequest(.post, "/_sim/control", body: Data(json.utf8))
    }

    /// Runs a write as the bot's account (`POST /api/v1/cmd`), as someone acting outside a run
    /// would, or as the account of another token (`--user-token`); answers the HTTP status.
    @discardableResult
    public func write(_ argv: [String], stdin: String? = nil, token other: String? = nil) async throws -> Int {
        var body: [String: Any] = ["argv": argv]
        if let stdin { body["stdin"] = stdin }
        let request = HTTPRequest(
            method: .post, url: baseURL.appendingPathComponent("api/v1/cmd"),
            headers: [
                HTTPHeader("Authorization", "Bearer \(other ?? token)"), HTTPHeader("Content-Type", "application/json"),
            ],
            body: try JSONSerialization.data(withJSONObject: body), timeout: .seconds(10))
        return try await PlatformTransport.make().send(request).status
    }

    private func simulatorRequest(
        _ method: HTTPRequest.Method, _ path: String, body: Data?
    ) async throws
        -> [String: Any]
    {
        let request = HTTPRequest(
            method: method, url: baseURL.appendingPathComponent(path),
            headers: [HTTPHeader("Authorization", "Bearer \(token)"), HTTPHeader("Content-Type", "application/json")],
            body: body, timeout: .seconds(10))
        let response = try await PlatformTransport.make().send(request)
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else {
            throw SimulatorError.badControlAnswer(path: path, status: response.status)
        }
        return object
    }

    /// A client of this simulator with the bot's token, paced far above what any test sends, so
    /// that only the simulator's own options limit it; each call is a new client, with metrics
    /// of its own.
    public func client(access: GitbayClientConfiguration.Access = .readOnly) throws -> GitbayClient {
        try GitbayClient(
            configuration: GitbayClientConfiguration(
                baseURL: baseURL, token: BearerToken(token), access: access,
                rateLimits: RateLimits(requestsPerMinute: 1_000_000, timeScale: 1000)),
            transport: PlatformTransport.make())
    }

    /// Stops the simulator (SIGTERM, SIGKILL after 5 s) and removes its files.
    public func stop() async {
        await stopServing()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Why a simulator could not be used.
public enum SimulatorError: Error, CustomStringConvertible {
    case didNotStart(arguments: [String])
    case badJournalLine(String)
    case badControlAnswer(path: String, status: Int)

    public var description: String {
        switch self {
        case .didNotStart(let arguments):
            return "the gitbay simulator did not print its URL (options: \(arguments))"
        case .badJournalLine(let line):
            return "the simulator's journal has a line that is not a JSON object: \(line)"
        case .badControlAnswer(let path, let status):
            return "the simulator answered \(path) with HTTP \(status)"
        }
    }
}
