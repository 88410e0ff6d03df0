import Testing

@testable import HTTPServer

/// The request-head parser, without sockets: what it takes, and every refusal.
@Suite struct RequestHeadTests {
    private func parse(_ text: String) -> Result<HTTPServer.Request, RequestHead.Failure> {
        RequestHead.parse(Array(text.utf8))
    }

    @Test func takesTheRequestLineAndTheHeadersAsSent() throws {
        let request = try parse("GET /metrics?x=1&y HTTP/1.1\r\nHost: bot\r\nX-Trace:  a b \t\r\nhost2: c\r\n\r\n")
            .get()
        #expect(request.method == "GET")
        #expect(request.target == "/metrics?x=1&y")
        #expect(request.path == "/metrics")
        #expect(request.query == "x=1&y")
        #expect(
            request.headers == [
                HTTPServer.Header("Host", "bot"), HTTPServer.Header("X-Trace", "a b"), HTTPServer.Header("host2", "c"),
            ])
    }

    @Test func takesHTTP10WithoutHostAndLinesEndingInABareLineFeed() throws {
        let request = try parse("HEAD /healthz HTTP/1.0\nAccept: */*\n\n").get()
        #expect(request.method == "HEAD")
        #expect(request.path == "/healthz")
        #expect(request.query == nil)
        #expect(request.headers == [HTTPServer.Header("Accept", "*/*")])
    }

    @Test func takesTheAsteriskAsTheTargetOfOptionsOnly() throws {
        let request = try parse("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").get()
        #expect(request.method == "OPTIONS")
        #expect(request.path == "*")
    }

    @Test func leavesPercentEncodingAndFurtherQuestionMarksAlone() throws {
        let request = try parse("GET /a%20b?c?d%2F HTTP/1.1\r\nHost: x\r\n\r\n").get()
        #expect(request.path == "/a%20b")
        #expect(request.query == "c?d%2F")
        #expect(try parse("GET /? HTTP/1.1\r\nHost: x\r\n\r\n").get().query == "")
    }

    @Test(
        arguments: [
            "", "\r\n", "GET\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1 \r\nHost: x\r\n\r\n",
            "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", "GET metrics HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET http://bot/metrics HTTP/1.1\r\nHost: x\r\n\r\n", "GET * HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /é HTTP/1.1\r\nHost: x\r\n\r\n", "GET / http/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            "GET / HTTP/1.0\r\nHost: x\r\nhost: y\r\n\r\n", "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n: empty name\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", "GET / HTTP/1.1\rHost: x\r\n\r\n",
        ])
    func refusesWhatIsNotHTTP1SyntaxWith400(head: String) {
        guard case .failure(let failure) = parse(head), case .malformed = failure else {
            Issue.record("\(head.debugDescription) was not refused as malformed: \(parse(head))")
            return
        }
        #expect(failure.status == 400)
    }

    @Test(arguments: ["HTTP/2.0", "HTTP/1.2", "HTTP/0.9"])
    func refusesOtherVersionsWith505(version: String) {
        let result = parse("GET / \(version)\r\nHost: x\r\n\r\n")
        #expect(result == .failure(.unsupportedVersion(version)))
        #expect((try? result.get()) == nil)
        if case .failure(let failure) = result { #expect(failure.status == 505) }
    }

    @Test func findsTheEmptyLineThatEndsTheHeadWhereverTheReadsSplitIt() {
        let head = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\nbody".utf8)
        #expect(RequestHead.end(in: head, from: 0) == head.count - 4)
        #expect(RequestHead.end(in: head, from: head.count - 7) == head.count - 4)
        #expect(RequestHead.end(in: head, from: head.count - 6) == nil)
        #expect(RequestHead.end(in: Array(head[..<(head.count - 5)]), from: 0) == nil)
        #expect(RequestHead.end(in: Array("GET / HTTP/1.0\n\n".utf8), from: 0) == 16)
        #expect(RequestHead.end(in: Array("GET / HTTP/1.0\r\nA: b\n\r\n".utf8), from: 0) == 23)
        #expect(RequestHead.end(in: Array("GET / HTTP/1.0\r\nA: b\r\n".utf8), from: 0) == nil)
        #expect(RequestHead.end(in: [], from: 0) == nil)
    }

    @Test func headerLookupIgnoresCaseAndTakesTheFirst() {
        let request = HTTPServer.Request(
            method: "GET", target: "/",
            headers: [HTTPServer.Header("Accept", "text/plain"), HTTPServer.Header("ACCEPT", "text/html")])
        #expect(request.header("accept") == "text/plain")
        #expect(request.header("ACCEPT") == "text/plain")
        #expect(request.header("Host") == nil)
    }
}
