import Foundation
import GitbayKit
import Testing

/// The hand-written timestamp parser and formatter agree with each other and with known instants.
///
/// A wrong day count would silently shift every staleness decision, so instants are pinned.
@Suite struct GitbayTimestampTests {
    @Test(arguments: [
        ("2026-09-23T23:26:00.570Z", 1_790_205_960.57),
        ("2026-09-02T14:03:11Z", 1_788_357_791),
        ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29T12:00:00Z", 951_825_600),
        ("2026-09-02T16:03:11+02:00", 1_788_357_791),
        ("2026-09-02 14:03:11", 1_788_357_791),
        ("1969-12-31T23:59:59Z", -1),
    ])
    func parsesKnownInstants(_ text: String, _ seconds: Double) throws {
        let date = try #require(GitbayTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test(arguments: [
        "", "2026-09-02", "2026-13-02T14:03:11Z", "2026-09-02T14:03:11.Z", "2026-09-02T14:03:11Q",
        "2026-09-02T25:03:11Z", "2026/09/02T14:03:11Z", "2026-09-02T14:03:11Zjunk",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(GitbayTimestamp.parse(text) == nil)
    }

    @Test(arguments: ["2026-09-23T23:26:00.570Z", "2024-02-29T00:00:00.001Z", "1999-12-31T23:59:59.999Z"])
    func millisecondFormRoundTrips(_ text: String) throws {
        let date = try #require(GitbayTimestamp.parse(text))
        #expect(GitbayTimestamp.format(date, precision: .milliseconds) == text)
    }

    @Test(arguments: ["2026-09-02T14:03:11Z", "2100-03-01T00:00:00Z", "1960-06-15T08:30:00Z"])
    func secondFormRoundTrips(_ text: String) throws {
        let date = try #require(GitbayTimestamp.parse(text))
        #expect(GitbayTimestamp.format(date, precision: .seconds) == text)
    }
}
