import GitbayTestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Request bodies on a body route: read whole and bounded, or refused without the handler.
///
/// Every wait has a bound (20 seconds) far above the limit under test, and a server that waited
/// for a body it should have refused would answer only at a read timeout of a minute, after the
/// suite's time limit.
@Suite(.timeLimit(.minutes(1))) struct BodyTests {
    private static let hook = HTTPServer.BodyRoute(path: "/hook", maxBodyBytes: 64)

    private func hookServer(
        readTimeout: Duration = .seconds(60), recorder: Recorder
    ) throws -> HTTPServer {
        try startedServer(
            limits: HTTPServer.Limits(readTimeout: readTimeout), bodyRoutes: [Self.hook], recorder: recorder,
            response: .text("taken\n", status: 202))
    }

    @Test func aPostToARouteReachesTheHandlerWithItsWholeBodySentWithTheHeadOrAfterIt() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let (together, apart) = try await offPool {
            let together = try RawClient.exchange(
                "POST /hook?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world", port: port)
            let client = try RawClient(port: port)
            client.write("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\n")
            _ = client.readable(within: .milliseconds(50))
            client.write("{\"a\":")
            _ = client.readable(within: .milliseconds(50))
            client.write("1")
            return (together, client.readToEnd(timeout: .seconds(20)))
        }
        #expect(together.response?.status == 202)
        #expect(together.response?.text == "taken\n")
        #expect(ParsedResponse(apart.bytes)?.status == 202)
        let seen = recorder.seen
        #expect(seen.map(\.method) == ["POST", "POST"])
        #expect(seen.map(\.path) == ["/hook", "/hook"])
        #expect(seen.first?.query == "x=1")
        #expect(seen.map(\.body) == [Array("hello world".utf8), Array("{\"a\":1".utf8)])
    }

    /// The handler gets the declared bytes and not one more, though the client sends far more.
    @Test func noMoreThanTheContentLengthIsRead() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange(
                "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbodyAND MORE"
                    + String(repeating: "x", count: 500),
                port: port)
        }
        #expect(exchange.response?.status == 202)
        #expect(recorder.seen.map(\.body) == [Array("body".utf8)])
    }

    @Test func anEmptyBodyOfLengthZeroReachesTheHandler() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", port: port)
        }
        #expect(exchange.response?.status == 202)
        #expect(recorder.seen.map(\.body) == [[]])
    }

    @Test(
        arguments: [
            ("POST /hook HTTP/1.1\r\nHost: x\r\n\r\nbody", 411),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n", 411),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\nbody", 411),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: four\r\n\r\nbody", 400),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\nbody", 400),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n", 413),
            ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ])
    func aBodyWithoutAGoodLengthIsRefusedBeforeItIsReadAndWithoutTheHandler(head: String, status: Int) async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool { try RawClient.exchange(head, port: port) }
        let response = try #require(exchange.response, "no answer within 20 s: the server waited for the body")
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        #expect(exchange.ending != .timedOut)
        #expect(recorder.seen.isEmpty)
    }

    @Test func aBodyOfExactlyTheLimitIsTakenAndOneByteMoreGets413() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let fitting = String(repeating: "f", count: 64)
        let (taken, refused) = try await offPool {
            (
                try RawClient.exchange(
                    "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 64\r\n\r\n\(fitting)", port: port),
                try RawClient.exchange(
                    "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n\(fitting)f", port: port)
            )
        }
        #expect(taken.response?.status == 202)
        #expect(refused.response?.status == 413)
        #expect(recorder.seen.map(\.body) == [Array(fitting.utf8)])
    }

    /// gitbay writes a whole delivery before it reads the answer: the 413 to one far past the
    /// limit must reach it, not a reset from a close with its body unread.
    @Test func aSenderWritingAllOfAnOversizedBodyReadsThe413() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let length = 8 << 20
        let (written, answer) = try await offPool { () -> (Bool, (bytes: [UInt8], ending: RawClient.Ending)) in
            let client = try RawClient(port: port)
            let written =
                client.write("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n")
                && client.write([UInt8](repeating: UInt8(ascii: "x"), count: length))
            return (written, client.readToEnd(timeout: .seconds(20)))
        }
        #expect(written, "the server read the body to its end")
        #expect(ParsedResponse(answer.bytes)?.status == 413)
        #expect(answer.ending == .endOfFile)
        #expect(recorder.seen.isEmpty)
    }

    /// A deadline for each read would never cut this client: it sends a byte of its body every
    /// 100 ms, its head long done.
    @Test func aBodyTricklingInIsCutAtTheReadTimeoutWithoutTheHandler() async throws {
        let recorder = Recorder()
        let server = try hookServer(readTimeout: .seconds(1), recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let (cut, trickled, answer) = try await offPool { () -> (Bool, Int, [UInt8]) in
            let client = try RawClient(port: port)
            client.write("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 64\r\n\r\n")
            for trickled in 0..<200 {
                if client.readable(within: .milliseconds(100)) || !client.write("a") {
                    return (true, trickled, client.readToEnd(timeout: .seconds(20)).bytes)
                }
            }
            return (false, 200, [])
        }
        #expect(cut, "a client trickling \(trickled) bytes of body was never cut")
        #expect(trickled < 64)
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(recorder.seen.isEmpty)
    }

    @Test func aBodyThatNeverComesGets408AtTheReadTimeout() async throws {
        let recorder = Recorder()
        let server = try hookServer(readTimeout: .seconds(1), recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf", port: port)
        }
        #expect(exchange.response?.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(exchange.ending == .endOfFile)
        #expect(recorder.seen.isEmpty)
    }

    /// The client ends its side after half its body and waits for the answer.
    @Test func aBodyCutShortGets400WithoutTheHandler() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let answer = try await offPool {
            let client = try RawClient(port: port)
            client.write("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf")
            shutdown(client.descriptor, Int32(SHUT_WR))
            return client.readToEnd(timeout: .seconds(20))
        }
        let response = try #require(ParsedResponse(answer.bytes))
        #expect(response.status == 400)
        #expect(response.text == "the body ended after 4 of its 10 bytes\n")
        #expect(answer.ending == .endOfFile)
        #expect(recorder.seen.isEmpty)
    }

    @Test(arguments: ["GET", "HEAD", "PUT", "DELETE"])
    func aRoutesPathIsServedToPOSTOnly(method: String) async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange("\(method) /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody", port: port)
        }
        let response = try #require(exchange.response)
        #expect(response.statusLine == "HTTP/1.1 405 Method Not Allowed")
        #expect(response.header("Allow") == "POST")
        #expect(recorder.seen.isEmpty)
    }

    /// The route changes its own path only: GET elsewhere is served as ever, without a body, and
    /// POST elsewhere is refused unread.
    @Test func otherPathsAreServedAsWithoutRoutes() async throws {
        let recorder = Recorder()
        let server = try hookServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let (get, post) = try await offPool {
            (
                try RawClient.exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody", port: port),
                try RawClient.exchange(
                    "POST /hook/more HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\npartial", port: port)
            )
        }
        #expect(get.response?.status == 202)
        #expect(post.response?.status == 405)
        #expect(post.response?.header("Allow") == "GET, HEAD")
        #expect(recorder.seen.map(\.path) == ["/metrics"])
        #expect(recorder.seen.map(\.body) == [nil])
    }

    @Test(
        arguments: [
            [HTTPServer.BodyRoute(path: "hook", maxBodyBytes: 10)],
            [HTTPServer.BodyRoute(path: "/hook", maxBodyBytes: 0)],
            [
                HTTPServer.BodyRoute(path: "/hook", maxBodyBytes: 10),
                HTTPServer.BodyRoute(path: "/hook", maxBodyBytes: 20),
            ],
        ])
    func routesThatCannotBeServedAreRefusedAtTheStart(routes: [HTTPServer.BodyRoute]) throws {
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(on: ListenAddress.parse("127.0.0.1:0"), bodyRoutes: routes) { _ in .text("") }
        }
    }
}
