import Foundation
import Testing

/// The Python test server (Tests/TransportTestServer) run as a child process on 127.0.0.1.
///
/// One server serves a whole suite (see ``Scope``): starting one per test would put dozens of
/// Python start-ups on a two-core runner at once and distort the deadline tests. Tests keep
/// apart by putting a unique marker in their paths when they read the server's request log.
final class TestHTTPServer: Sendable {
    /// The server of the suite being run, set by ``Scope``.
    @TaskLocal static var current: TestHTTPServer?

    let port: Int
    private let process: Process
    /// The server exits when this pipe closes, even if this process dies without stopping it.
    private let input: Pipe

    /// The server script, found from this file's path so tests need no bundled resources.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TransportTestServer/transport_test_server.py")

    private init(process: Process, input: Pipe, port: Int) {
        self.process = process
        self.input = input
        self.port = port
    }

    /// Starts a server on a free port and waits for it to print that port.
    static func start() throws -> TestHTTPServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "0"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            process.terminate()
            throw ServerError(message: "test server printed no port: \(text)")
        }
        return TestHTTPServer(process: process, input: input, port: port)
    }

    /// The suite's server; fails the test when the suite lacks the ``Scope`` trait.
    static func shared() throws -> TestHTTPServer {
        try #require(current, "the suite needs the .testHTTPServer trait")
    }

    /// A URL on this server for `path` (which may carry a query), on the given host name.
    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// Why the server could not be started.
    struct ServerError: Error {
        var message: String
    }

    /// A suite trait that runs one server for the whole suite and stops it when the suite ends.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let server = try TestHTTPServer.start()
            defer { server.stop() }
            try await TestHTTPServer.$current.withValue(server) {
                try await function()
            }
        }
    }
}

extension Trait where Self == TestHTTPServer.Scope {
    /// Runs the suite with one local ``TestHTTPServer``, reachable through `TestHTTPServer.shared()`.
    static var testHTTPServer: Self { Self() }
}
