import GitbayTestSupport
import Testing

@testable import HTTPServer

/// What the server puts on the wire for a handler's response.
@Suite struct ResponseTests {
    private func encoded(_ response: HTTPServer.Response, withBody: Bool = true) throws -> ParsedResponse {
        try #require(ParsedResponse(response.encoded(withBody: withBody)))
    }

    @Test func addsTheFramingAndTheSafetyHeaders() throws {
        let parsed = try encoded(.text("up\n"))
        #expect(parsed.statusLine == "HTTP/1.1 200 OK")
        #expect(parsed.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(parsed.header("Content-Length") == "3")
        #expect(parsed.header("Connection") == "close")
        #expect(parsed.header("Cache-Control") == "no-store")
        #expect(parsed.header("X-Content-Type-Options") == "nosniff")
        #expect(parsed.text == "up\n")
    }

    @Test func keepsTheHandlersSafetyHeadersAndDropsItsFraming() throws {
        let response = HTTPServer.Response(
            status: 404,
            headers: [
                HTTPServer.Header("cache-control", "max-age=5"), HTTPServer.Header("X-Content-Type-Options", "other"),
                HTTPServer.Header("Content-Length", "999"), HTTPServer.Header("Transfer-Encoding", "chunked"),
                HTTPServer.Header("connection", "keep-alive"), HTTPServer.Header("X-Kept", "yes"),
            ],
            body: Array("gone".utf8))
        let parsed = try encoded(response)
        #expect(parsed.statusLine == "HTTP/1.1 404 Not Found")
        #expect(parsed.header("Cache-Control") == "max-age=5")
        #expect(parsed.header("X-Content-Type-Options") == "other")
        #expect(parsed.header("Content-Length") == "4")
        #expect(parsed.values("Transfer-Encoding").isEmpty)
        #expect(parsed.header("Connection") == "close")
        #expect(parsed.header("X-Kept") == "yes")
    }

    @Test func dropsHeadersThatCouldSplitTheResponse() throws {
        let response = HTTPServer.Response(
            status: 200,
            headers: [
                HTTPServer.Header("X-Split", "a\r\nSet-Cookie: evil=1"), HTTPServer.Header("Bad Name", "v"),
                HTTPServer.Header("", "v"), HTTPServer.Header("X-Tab", "a\tb"),
            ])
        let parsed = try encoded(response)
        #expect(parsed.values("Set-Cookie").isEmpty)
        #expect(parsed.values("X-Split").isEmpty)
        #expect(parsed.values("Bad Name").isEmpty)
        #expect(parsed.header("X-Tab") == "a\tb")
        #expect(parsed.headers.count == 5)
    }

    @Test func theAnswerToHeadHasTheLengthOfTheBodyItLeavesOut() throws {
        let bytes = HTTPServer.Response.text("twelve bytes").encoded(withBody: false)
        let parsed = try #require(ParsedResponse(bytes))
        #expect(parsed.header("Content-Length") == "12")
        #expect(parsed.body.isEmpty)
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\n"))
    }

    @Test(arguments: [100, 101, 199, 600, 0, -1])
    func aStatusOutside200To599Becomes500(status: Int) throws {
        let parsed = try encoded(HTTPServer.Response(status: status))
        #expect(parsed.statusLine == "HTTP/1.1 500 Internal Server Error")
    }

    @Test func aStatusWithoutAKnownReasonHasAnEmptyOne() throws {
        #expect(try encoded(HTTPServer.Response(status: 299)).statusLine == "HTTP/1.1 299 ")
        #expect(try encoded(HTTPServer.Response(status: 503)).statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(
            try encoded(HTTPServer.Response(status: 431)).statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
    }
}
