import Foundation

/// The transport tests' Python server (Tests/TransportTestServer), run as a child process.
///
/// The benchmark reuses it so the slow and fast endpoints it measures are the ones the tests
/// exercise; it is found from this file's path, so run the benchmark from a checkout.
struct BenchServer: Sendable {
    let port: Int
    private let process: Process
    /// The server exits when this pipe closes, even if the benchmark dies without stopping it.
    private let input: Pipe

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/TransportTestServer/transport_test_server.py")

    /// Starts the server on a free port and waits for it to print that port.
    init() throws {
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
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw BenchError.serverDidNotStart
        }
        self.port = port
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// Why the benchmark could not run.
    enum BenchError: Error {
        case serverDidNotStart
    }
}
