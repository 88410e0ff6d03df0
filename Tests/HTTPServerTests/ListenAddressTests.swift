import Testing

@testable import HTTPServer

/// The `--listen` value: the forms taken, and the one-line refusals.
@Suite struct ListenAddressTests {
    @Test(
        arguments: [
            ("9464", "127.0.0.1", 9464), (":9464", "127.0.0.1", 9464), ("localhost:9464", "127.0.0.1", 9464),
            ("LocalHost:1", "127.0.0.1", 1), ("127.0.0.1:0", "127.0.0.1", 0), ("0.0.0.0:80", "0.0.0.0", 80),
            ("192.0.2.7:65535", "192.0.2.7", 65535), ("[::1]:9464", "::1", 9464), ("[::]:0", "::", 0),
            ("[2001:db8::7]:443", "2001:db8::7", 443), ("0", "127.0.0.1", 0),
        ])
    func takesThePortAloneLocalhostAndIPLiterals(text: String, host: String, port: Int) throws {
        let address = try ListenAddress.parse(text)
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test func refusesAHostNameAskingForAnIPAddress() {
        #expect(
            throws: HTTPServerError(
                "--listen takes HOST:PORT with HOST an IP address or localhost, such as 127.0.0.1:9464, not 'example.org:80'"
            )
        ) {
            try ListenAddress.parse("example.org:80")
        }
    }

    @Test func refusesAnIPv6AddressWithoutBrackets() {
        #expect(
            throws: HTTPServerError("--listen takes an IPv6 address in brackets, such as [::1]:9464, not '::1:9464'")
        ) {
            try ListenAddress.parse("::1:9464")
        }
    }

    @Test(arguments: [
        "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80", "localhost:x", "[::1]:", "123456",
    ])
    func refusesAPortOutside0To65535(text: String) {
        #expect(
            throws: HTTPServerError(
                "--listen takes a port from 0 to 65535, such as 127.0.0.1:9464, not '\(text)'")
        ) {
            try ListenAddress.parse(text)
        }
    }

    @Test(
        arguments: [
            "", "abc", "127.0.0.1", "[::1]", "[::1]9464", "[127.0.0.1]:80", "[example.org]:80", "1.2.3:80",
            "999.1.1.1:80", "01.2.3.4:80", "localhost.:80", "fe80::1%eth0",
        ])
    func refusesWhatIsNotHostColonPort(text: String) throws {
        let error = try #require(throws: HTTPServerError.self) { try ListenAddress.parse(text) }
        #expect(error.message.hasPrefix("--listen takes "))
        #expect(error.description == error.message)
    }

    @Test func quotesTheValueOnOneLine() throws {
        let error = try #require(throws: HTTPServerError.self) { try ListenAddress.parse("a\nb:8\u{7}0") }
        #expect(!error.message.contains("\n"))
        #expect(error.message.hasSuffix("not 'a\\u{a}b:8\\u{7}0'"))
    }

    @Test(
        arguments: [
            ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("::ffff:127.0.0.1", true), ("0.0.0.0", false),
            ("::", false), ("192.0.2.7", false), ("10.0.0.1", false), ("::2", false), ("::ffff:10.0.0.1", false),
            ("128.0.0.1", false), ("not an address", false),
        ])
    func loopbackIs127Slash8AndColonColon1(host: String, isLoopback: Bool) {
        #expect(ListenAddress(host: host, port: 1).isLoopback == isLoopback)
    }

    @Test func describesItselfAsListenTakesIt() throws {
        #expect(try ListenAddress.parse("[::1]:9464").description == "[::1]:9464")
        #expect(try ListenAddress.parse(":80").description == "127.0.0.1:80")
        #expect(
            try ListenAddress.parse(try ListenAddress.parse("[::]:0").description) == ListenAddress(host: "::", port: 0)
        )
    }
}
