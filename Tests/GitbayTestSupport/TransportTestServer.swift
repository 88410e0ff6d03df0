import Foundation

/// The transport tests' Python server (`Tests/TransportTestServer`) run as a child process on 127.0.0.1.
///
/// The transport tests, the endless-body drill of the command line and the transport benchmark
/// all start this one server, so the endpoints the benchmark measures are the ones the tests
/// exercise. The server exits when its standard input closes, so a test process that dies
/// without stopping it leaves nothing behind.
public final class TransportTestServer: Sendable {
    public let port: Int
    private let process: ChildProcess

    /// The server script, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TransportTestServer/transport_test_server.py")

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    /// Starts a server on a free port and waits (at most 30 s) for it to print that port.
    public static func start() async throws -> TransportTestServer {
        let (python, arguments) = try await StandardLibraryPython.command(script.path, ["0"])
        let process = try ChildProcess(
            python, arguments, environment: ProcessInfo.processInfo.environment, input: .pipe, error: .discard)
        let line = (try? await process.firstLine(timeout: .seconds(30))) ?? process.outputSoFar
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            await process.stop()
            throw StartError(printed: line)
        }
        return TransportTestServer(port: port, process: process)
    }

    /// Runs `body` with a server started for it, and stops the server whatever `body` does.
    public static func run<T>(_ body: (TransportTestServer) async throws -> T) async throws -> T {
        try await stopping(try await start(), with: { await $0.stop() }, body)
    }

    /// A URL on this server for `path` (which may carry a query), on the given host name.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    /// Ends the server: its standard input closes (it exits on that), SIGTERM, then SIGKILL.
    public func stop() async {
        await process.stop()
    }

    /// The server did not print its port.
    public struct StartError: Error, CustomStringConvertible {
        public var printed: String

        public var description: String { "the transport test server printed no port: '\(printed)'" }
    }
}
