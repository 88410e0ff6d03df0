import Foundation

/// The transport tests' Python server (`Tests/TransportTestServer`) run as a child process on 127.0.0.1.
///
/// The transport tests, the endless-body drill of the command line and the transport benchmark
/// all start this one server, so the endpoints the benchmark measures are the ones the tests
/// exercise. The server exits when its standard input closes, so a test process that dies
/// without stopping it leaves nothing behind.
public final class TransportTestServer: Sendable {
    public let port: Int
    private let process: Process
    private let input: Pipe

    /// The server script, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TransportTestServer/transport_test_server.py")

    /// Starts a server on a free port and waits for it to print that port.
    public init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "0"]
        let output = Pipe()
        input = Pipe()
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
            process.waitWithoutRunLoop()
            throw StartError(printed: text)
        }
        self.port = port
    }

    /// A URL on this server for `path` (which may carry a query), on the given host name.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitWithoutRunLoop()
    }

    /// The server did not print its port.
    public struct StartError: Error, CustomStringConvertible {
        public var printed: String

        public var description: String { "the transport test server printed no port: '\(printed)'" }
    }
}
