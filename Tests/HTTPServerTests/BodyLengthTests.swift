import Testing

@testable import HTTPServer

/// The framing of a body from its header fields, without a socket.
@Suite struct BodyLengthTests {
    private func length(_ fields: [(String, String)], limit: Int = 100) -> Result<Int, BodyLength.Refusal> {
        BodyLength.of(fields.map { HTTPServer.Header($0.0, $0.1) }, limit: limit)
    }

    @Test func aContentLengthUpToTheLimitIsTheBodysLength() {
        #expect(length([("Content-Length", "0")]) == .success(0))
        #expect(length([("content-length", "42")]) == .success(42))
        #expect(length([("Host", "x"), ("CONTENT-LENGTH", "100")]) == .success(100))
        #expect(length([("Content-Length", "007")]) == .success(7))
    }

    @Test func noContentLengthIsLengthRequired() {
        #expect(length([("Host", "x")]) == .failure(.lengthRequired))
        #expect(BodyLength.Refusal.lengthRequired.status == 411)
    }

    /// With a Content-Length too: a request that two readers could frame two ways is refused.
    @Test func anyTransferEncodingIsRefusedAsLengthRequired() {
        #expect(length([("Transfer-Encoding", "chunked")]) == .failure(.transferEncoding))
        #expect(length([("Content-Length", "5"), ("transfer-encoding", "chunked")]) == .failure(.transferEncoding))
        #expect(length([("Transfer-Encoding", "identity"), ("Content-Length", "5")]) == .failure(.transferEncoding))
        #expect(BodyLength.Refusal.transferEncoding.status == 411)
    }

    @Test(arguments: ["", "abc", "-1", "+5", "5 ", "1,1", "0x10", "1e3", "٣"])
    func aContentLengthThatIsNotDecimalDigitsIsMalformed(value: String) throws {
        let refusal = try #require(length([("Content-Length", value)]).failureValue)
        #expect(refusal.status == 400)
    }

    @Test func twoContentLengthsAreMalformedEvenWhenTheyAgree() {
        let refusal = length([("Content-Length", "5"), ("Content-Length", "5")]).failureValue
        #expect(refusal?.status == 400)
    }

    @Test func aLengthOverTheLimitIsTooLargeUpToNumbersNoIntHolds() {
        #expect(length([("Content-Length", "101")]) == .failure(.tooLarge(limit: 100)))
        #expect(length([("Content-Length", "99999999999999999999999999")]) == .failure(.tooLarge(limit: 100)))
        #expect(BodyLength.Refusal.tooLarge(limit: 100).status == 413)
    }
}

extension Result {
    /// The error, or nil for a success.
    fileprivate var failureValue: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
