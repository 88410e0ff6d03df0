import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

private let secret = "gb_" + String(repeating: "ab12", count: 16)
private let token = BearerToken(secret)

private func makeClient(
    _ transport: InMemoryTransport, clock: ManualClock = ManualClock(),
    access: GitbayClientConfiguration.Access = .readWrite, retry: RetryPolicy = RetryPolicy()
) throws -> GitbayClient {
    let configuration = GitbayClientConfiguration(
        baseURL: URL(string: "https://gitbay.example/")!, token: token, access: access, retry: retry)
    return try GitbayClient(configuration: configuration, transport: transport, clock: clock, jitter: { 1 })
}

private let okNumber = HTTPResponse.gitbay(200, #"{"data":{"number":7},"exit_code":0,"protocol_version":1}"#)

@Suite struct GitbayClientRequestTests {
    @Test func readsAreGETsWithEveryArgvWordEncoded() async throws {
        let transport = InMemoryTransport { _ in okNumber }
        let client = try makeClient(transport)
        _ = try await client.send(SearchCommand(text: "label:\"needs review\" c++ a&b=c;d #1 100%"))
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(
            request.url.absoluteString
                == "https://gitbay.example/api/v1/read?argv=issue&argv=list&argv=--q&argv="
                + "label:%22needs%20review%22%20c%2B%2B%20a%26b%3Dc%3Bd%20%231%20100%25&argv=--limit&argv=50")
        #expect(request.body == nil)
        #expect(request.headers.contains(HTTPHeader("Authorization", "Bearer \(secret)")))
        #expect(request.headers.contains(HTTPHeader("User-Agent", "gitbay-bot/\(BotVersion.current)")))
    }

    @Test func writesArePOSTsWithArgvAndStdinInTheBody() async throws {
        let transport = InMemoryTransport { _ in okNumber }
        let client = try makeClient(transport)
        _ = try await client.send(CommentCommand(body: "Closing: stale.\n"))
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://gitbay.example/api/v1/cmd")
        let body = try #require(request.body.map { String(decoding: $0, as: UTF8.self) })
        #expect(body == #"{"argv":["issue","comment","krz/gitbay","7","--file","-"],"stdin":"Closing: stale.\n"}"#)
        #expect(request.headers.contains(HTTPHeader("Content-Type", "application/json")))
    }

    /// gitbay encodes an empty Go slice as `null`: a listing with no rows, not a broken reply.
    @Test func aNullListingIsEmptyWhereTheCommandSaysSoAndMalformedElsewhere() async throws {
        let transport = InMemoryTransport { _ in
            HTTPResponse.gitbay(200, #"{"data":null,"exit_code":0,"protocol_version":1}"#)
        }
        let client = try makeClient(transport)
        let milestones = try await client.send(MilestoneListCommand(repository: try RepositoryPath("krz/solo")))
        #expect(milestones.isEmpty)
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(SearchCommand(text: "is:open"))
        }
        #expect(error?.kind == .malformedResponse)
    }

    @Test func readOnlyClientRefusesWritesWithoutSendingAnything() async throws {
        let transport = InMemoryTransport { _ in okNumber }
        let client = try makeClient(transport, access: .readOnly)
        let error = await #expect(throws: GitbayError.self) {
            try await client.send(CommentCommand(body: "hi"))
        }
        #expect(error?.kind == .readOnlyClient)
        #expect(transport.requests.isEmpty)
        #expect(client.metrics.refusedWrites == 1)
        _ = try await client.send(SearchCommand(text: "is:open"))
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        ("http://gitbay.example", false, false),
        ("http://gitbay.example", true, true),
        ("http://127.0.0.1:8080", false, true),
        ("http://localhost:9", false, true),
        ("http://[::1]:9", false, true),
        ("https://gitbay.example", false, true),
        ("ftp://gitbay.example", true, false),
    ])
    func plainHTTPOnlyToLoopbackUnlessOptedIn(url: String, optIn: Bool, accepted: Bool) throws {
        let configuration = GitbayClientConfiguration(
            baseURL: URL(string: url)!, token: token, allowInsecureHTTP: optIn)
        let transport = InMemoryTransport { _ in okNumber }
        if accepted {
            _ = try GitbayClient(configuration: configuration, transport: transport)
        } else {
            let error = #expect(throws: GitbayError.self) {
                try GitbayClient(configuration: configuration, transport: transport)
            }
            #expect(error?.kind == .insecureURL)
        }
    }
}

@Suite struct GitbayClientPagingTests {
    /// Serves `total` descending numbers, `limit` a page, with gitbay's cursor rule (strictly below).
    static func numbers(total: Int) -> InMemoryTransport {
        InMemoryTransport { request in
            let words =
                URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .compactMap(\.value) ?? []
            let limit = Int(words[words.firstIndex(of: "--limit")! + 1])!
            let below = words.firstIndex(of: "--cursor").map { Int(words[$0 + 1])! } ?? total + 1
            let rows = Array((1..<below).reversed().prefix(limit))
            let next = rows.count == limit && rows.last! > 1 ? #","next":"\#(rows.last!)""# : ""
            return .gitbay(200, #"{"data":{"items":\#(rows)\#(next)},"exit_code":0,"protocol_version":1}"#)
        }
    }

    @Test(arguments: [(1000, 5), (999, 5), (200, 1), (201, 2), (0, 1)])
    func listsFollowNextUntilTheLastPage(total: Int, requests: Int) async throws {
        let transport = Self.numbers(total: total)
        let client = try makeClient(transport)
        let rows = try await client.all(NumberListCommand())
        #expect(rows == Array((1...max(total, 1)).reversed()).filter { $0 <= total })
        #expect(transport.requests.count == requests)
        #expect(client.metrics.reads == requests)
    }

    @Test func aRepeatedCursorStopsTheListing() async throws {
        let transport = InMemoryTransport { _ in
            .gitbay(200, #"{"data":{"items":[3],"next":"c2FtZQ"},"exit_code":0,"protocol_version":1}"#)
        }
        let client = try makeClient(transport)
        let error = await #expect(throws: GitbayError.self) {
            try await client.all(NumberListCommand())
        }
        #expect(error?.kind == .malformedResponse)
        #expect(transport.requests.count == 2)
    }
}
