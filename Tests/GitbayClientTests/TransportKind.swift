import GitbayClient
import Testing

/// The transports the shared transport tests run against, one test case each.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    #if os(Linux)
    case curl
    #endif
    case urlSession

    var testDescription: String { rawValue }

    func make() -> any HTTPTransport {
        switch self {
        #if os(Linux)
        case .curl: CurlTransport()
        #endif
        case .urlSession: URLSessionTransport()
        }
    }
}
