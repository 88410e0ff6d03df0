import GitbayTestSupport
import Testing

/// The reference parser the tests of `/metrics` read it with: families, escapes and values come
/// out as prometheus_client reads them, and what it rejects is an error carrying its message.
@Suite struct PrometheusTextTests {
    @Test func aValidExpositionParsesToItsFamiliesLabelsAndValues() async throws {
        // A label value with an escaped quote, backslash and newline; HELP escapes `\\` and `\n`.
        let exposition = #"""
            # HELP gitbay_bot_writes_total Writes sent to gitbay, by outcome \\ repository;\nper run.
            # TYPE gitbay_bot_writes_total counter
            gitbay_bot_writes_total{outcome="ok",repository="krz/\"quoted\" \\ back\nslash"} 3
            gitbay_bot_writes_total{outcome="refused",repository="krz/gitbay"} 0
            # HELP gitbay_bot_queue_depth Actions waiting for their rule's schedule window.
            # TYPE gitbay_bot_queue_depth gauge
            gitbay_bot_queue_depth -2.5
            # TYPE gitbay_bot_poll_age_seconds gauge
            gitbay_bot_poll_age_seconds +Inf

            """#
        let families = try await PrometheusText.parse(exposition)
        #expect(
            families == [
                PrometheusText.Family(
                    name: "gitbay_bot_writes", type: "counter",
                    help: "Writes sent to gitbay, by outcome \\ repository;\nper run.",
                    samples: [
                        PrometheusText.Sample(
                            name: "gitbay_bot_writes_total",
                            labels: ["outcome": "ok", "repository": "krz/\"quoted\" \\ back\nslash"], value: 3),
                        PrometheusText.Sample(
                            name: "gitbay_bot_writes_total",
                            labels: ["outcome": "refused", "repository": "krz/gitbay"],
                            value: 0),
                    ]),
                PrometheusText.Family(
                    name: "gitbay_bot_queue_depth", type: "gauge",
                    help: "Actions waiting for their rule's schedule window.",
                    samples: [PrometheusText.Sample(name: "gitbay_bot_queue_depth", value: -2.5)]),
                PrometheusText.Family(
                    name: "gitbay_bot_poll_age_seconds", type: "gauge", help: "",
                    samples: [PrometheusText.Sample(name: "gitbay_bot_poll_age_seconds", value: .infinity)]),
            ])
    }

    @Test func notANumberAndASampleWithoutTypeComeThrough() async throws {
        let families = try await PrometheusText.parse("gitbay_bot_up NaN\n")
        let family = try #require(families.first)
        #expect(families.count == 1)
        #expect(family.name == "gitbay_bot_up")
        #expect(family.type == "unknown")
        #expect(family.samples.count == 1)
        #expect(family.samples.first?.value.isNaN == true)
    }

    @Test(arguments: [
        ("gitbay_bot_writes_total{outcome=\"ok\" 1\n", "could not convert string to float: '{outcome=\"ok\"'"),
        ("gitbay_bot_queue_depth 2x\n", "could not convert string to float: '2x'"),
        ("# TYPE m counter\nm_total{a=b} 1\n", "Invalid labels: a=b"),
    ])
    func anInvalidExpositionThrowsWithTheParsersMessage(exposition: String, message: String) async throws {
        await #expect {
            try await PrometheusText.parse(exposition)
        } throws: { error in
            guard case .invalid(let reported) = error as? PrometheusText.Failure else { return false }
            return reported == "ValueError: \(message)"
        }
    }
}
