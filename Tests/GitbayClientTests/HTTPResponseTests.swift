import GitbayClient
import Testing

@Suite struct HTTPResponseTests {
    @Test func headerLookupIgnoresCase() {
        let response = HTTPResponse(status: 429, headers: [HTTPHeader("retry-after", "7")])
        #expect(response.header("Retry-After") == "7")
        #expect(response.header("ETag") == nil)
    }
}
