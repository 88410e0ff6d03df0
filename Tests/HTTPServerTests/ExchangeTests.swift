import GitbayTestSupport
import Testing

@testable import HTTPServer

/// One request, one response, one connection: what reaches the handler and what comes back.
@Suite(.timeLimit(.minutes(1))) struct ExchangeTests {
    @Test func getReachesTheHandlerAndTheConnectionClosesAfterTheResponse() async throws {
        let recorder = Recorder()
        let server = try startedServer(recorder: recorder)
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.address == ListenAddress(host: "127.0.0.1", port: 0))
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange(
                "GET /metrics?x=1 HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain\r\nx-lower: v\r\n\r\n", port: port)
        }
        #expect(exchange.ending == .endOfFile)
        let response = try #require(exchange.response)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.text == "metric 1\n")
        #expect(response.header("Content-Length") == "9")
        #expect(response.header("Connection") == "close")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        let expected = HTTPServer.Request(
            method: "GET", target: "/metrics?x=1",
            headers: [
                HTTPServer.Header("Host", "localhost"), HTTPServer.Header("Accept", "text/plain"),
                HTTPServer.Header("x-lower", "v"),
            ])
        #expect(recorder.seen == [expected])
        #expect(recorder.seen.first?.path == "/metrics")
        #expect(recorder.seen.first?.query == "x=1")
    }

    @Test func headGetsTheHeadersOfGetWithoutTheBody() async throws {
        let recorder = Recorder()
        let server = try startedServer(recorder: recorder, response: .text("a body of 20 bytes.\n"))
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange("HEAD /status HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
        }
        #expect(exchange.ending == .endOfFile)
        let response = try #require(exchange.response)
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "20")
        #expect(response.header("Connection") == "close")
        #expect(response.body.isEmpty)
        #expect(recorder.seen.map(\.method) == ["HEAD"])
    }

    @Test func anHTTP10RequestGetsAnHTTP11Answer() async throws {
        let server = try startedServer()
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool { try RawClient.exchange("GET /healthz HTTP/1.0\r\n\r\n", port: port) }
        let response = try #require(exchange.response)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.text == "metric 1\n")
        #expect(exchange.ending == .endOfFile)
    }

    /// The announced body is never sent: a server that waited for it would answer only at the
    /// read timeout (a minute), after the test's time limit.
    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get"])
    func otherMethodsGet405WithoutTheHandlerOrTheirBodyBeingRead(method: String) async throws {
        let recorder = Recorder()
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(60)), recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange(
                "\(method) /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\npartial", port: port,
                timeout: .seconds(20))
        }
        let response = try #require(exchange.response)
        #expect(response.statusLine == "HTTP/1.1 405 Method Not Allowed")
        #expect(response.header("Allow") == "GET, HEAD")
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(exchange.ending == .endOfFile)
        #expect(recorder.seen.isEmpty)
    }

    @Test(
        arguments: [
            ("GARBAGE\r\n\r\n", 400), ("GET / HTTP/1.1\r\n\r\n", 400), ("GET /  HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505), ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ])
    func aHeadThatDoesNotParseIsRefusedWithoutTheHandler(head: String, status: Int) async throws {
        let recorder = Recorder()
        let server = try startedServer(recorder: recorder)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool { try RawClient.exchange(head, port: port) }
        let response = try #require(exchange.response)
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        #expect(exchange.ending == .endOfFile)
        #expect(recorder.seen.isEmpty)
    }

    @Test func servesOnIPv6Loopback() async throws {
        let server = try startedServer(on: "[::1]:0")
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool {
            try RawClient.exchange("GET /metrics HTTP/1.1\r\nHost: [::1]\r\n\r\n", port: port, host: "::1")
        }
        #expect(exchange.response?.status == 200)
        #expect(exchange.response?.text == "metric 1\n")
    }
}
