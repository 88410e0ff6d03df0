import Foundation
import GitbayTestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one client can hold: bytes of head, time to send it, time to take the answer, places.
///
/// Every outcome is asserted, never a duration: each wait has a bound (20 seconds) far above the
/// limit under test, so a loaded two-core machine is slow, not failing.
@Suite(.timeLimit(.minutes(1))) struct LimitsTests {
    @Test func anEndlessHeaderGets431AndNeverMoreThanMaxHeadBytesIsHeld() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(maxHeadBytes: 1024, readTimeout: .seconds(60)))
        let port = server.port
        let outcome = try await offPool {
            let client = try RawClient(port: port)
            client.write("GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")
            return client.flood(
                with: [UInt8](repeating: UInt8(ascii: "a"), count: 4096), limit: 256 << 20, timeout: .seconds(20))
        }
        #expect(outcome.closed, "the server kept reading an endless header (\(outcome.sent) bytes)")
        let answer = String(decoding: outcome.received, as: UTF8.self)
        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        await server.stopAndWait()
        #expect(server.loop.largestHeadHeld > 0)
        #expect(server.loop.largestHeadHeld <= 1024)
    }

    @Test func aHeadOfMaxHeadBytesIsServedAndOneByteMoreGets431() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(maxHeadBytes: 128))
        defer { server.stop() }
        let port = server.port
        let fittingHead = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "a", count: 92))\r\n\r\n"
        #expect(fittingHead.utf8.count == 128)
        let longHead = fittingHead.replacingOccurrences(of: "X-Pad: ", with: "X-Pad: a")
        let fitting = try await offPool { try RawClient.exchange(fittingHead, port: port) }
        let tooLong = try await offPool { try RawClient.exchange(longHead, port: port) }
        #expect(fitting.response?.status == 200)
        #expect(tooLong.response?.status == 431)
        #expect(tooLong.response?.header("Connection") == "close")
    }

    @Test func aSilentClientIsClosedAtTheReadTimeoutWhileOthersAreServed() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(1)))
        defer { server.stop() }
        let port = server.port
        let (served, silent) = try await offPool {
            let silent = try RawClient(port: port)
            let served = try RawClient.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            return (served, silent.readToEnd(timeout: .seconds(20)))
        }
        #expect(served.response?.status == 200)
        #expect(silent.ending == .endOfFile)
        let answer = String(decoding: silent.bytes, as: UTF8.self)
        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }

    /// A deadline for each read would never cut this client: it sends a byte every 100 ms.
    @Test func aClientTricklingItsHeadIsCutAtTheReadTimeout() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(1)))
        defer { server.stop() }
        let port = server.port
        let (cut, trickled) = try await offPool { () -> (Bool, Int) in
            let client = try RawClient(port: port)
            client.write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            for trickled in 0..<200 {
                if client.readable(within: .milliseconds(100)) || !client.write("a") { return (true, trickled) }
            }
            return (false, 200)
        }
        #expect(cut, "a client trickling \(trickled) bytes was never cut")
    }

    @Test func oneConnectionBeyondTheLimitGets503AtOnceAndServiceResumesAfterTheTimeouts() async throws {
        let server = try startedServer(
            limits: HTTPServer.Limits(readTimeout: .seconds(10), maxConnections: 2), response: .text("fine\n"))
        defer { server.stop() }
        let port = server.port
        // Both are served (the listener, the pipe's two ends, two connections) before the third comes,
        // which must come while the read timeout holds them: all on a thread of its own, since the
        // cooperative pool can be held by other suites for longer than the timeout.
        let (held, refused, silentEndings, after) = try await offPool {
            let silent = try [RawClient(port: port), RawClient(port: port)]
            let held = servedWhileBlocking(server, descriptors: 5)
            let refused = try RawClient.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            let silentEndings = silent.map { $0.readToEnd(timeout: .seconds(20)).ending }
            let after = try RawClient.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            return (held, refused, silentEndings, after)
        }
        try #require(held, "the two connections were not both served")
        let busy = try #require(refused.response)
        #expect(busy.statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(busy.header("Retry-After") == "1")
        #expect(busy.header("Connection") == "close")
        #expect(busy.header("Content-Length") == String(busy.body.count))
        #expect(refused.ending != .timedOut)
        #expect(silentEndings == [.endOfFile, .endOfFile])
        #expect(after.response?.status == 200)
        #expect(after.response?.text == "fine\n")
    }

    /// The only place is held by a client that asked for 16 MiB and reads none of it: without the
    /// write timeout it would be held for good, and every later request would get 503.
    @Test func aClientThatNeverReadsIsCutAtTheWriteTimeout() async throws {
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20)
        let server = try HTTPServer.start(
            on: ListenAddress.parse("127.0.0.1:0"),
            limits: HTTPServer.Limits(writeTimeout: .seconds(1), maxConnections: 1)
        ) { request in
            request.path == "/large" ? HTTPServer.Response(status: 200, body: large) : .text("small\n")
        }
        defer { server.stop() }
        let port = server.port
        let stuck = try await offPool { () -> RawClient in
            let stuck = try RawClient(port: port, receiveBuffer: 4096)
            stuck.write("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
            return stuck
        }
        // The server notes a connection's head as the connection ends: here, as the stuck one is cut.
        let cut = try await eventually(within: 20, every: .milliseconds(10)) { server.loop.largestHeadHeld > 0 }
        try #require(cut, "the client that never reads was never cut")
        let final = try await offPool {
            try RawClient.exchange("GET /small HTTP/1.1\r\nHost: x\r\n\r\n", port: port).response
        }
        withExtendedLifetime(stuck) {}
        #expect(final?.status == 200)
        #expect(final?.text == "small\n")
    }

    /// The client closes right after its request, so the server writes to a connection whose peer
    /// is gone: the second write fails with EPIPE, which raises SIGPIPE (and ends the test process)
    /// unless the write asked for none.
    @Test func aClientGoneBeforeItsAnswerRaisesNoSIGPIPE() async throws {
        let server = try startedServer(
            response: HTTPServer.Response(status: 200, body: [UInt8](repeating: 0, count: 8 << 20)))
        defer { server.stop() }
        let port = server.port
        try await offPool {
            let client = try RawClient(port: port)
            client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        // The connection is done: its head was read, and it was closed.
        let settled = try await eventually(within: 20, every: .milliseconds(10)) {
            server.loop.largestHeadHeld > 0 && server.loop.openDescriptors.count == 3
        }
        #expect(settled)
        let after = try await offPool { try RawClient.exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", port: port) }
        #expect(after.response?.status == 200)
    }
}
