import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// The transport error for a failed URLSession exchange, grouped the way the client retries.
    init(urlError error: URLError) {
        let detail = "URLError \(error.code.rawValue)"
        switch error.code {
        case .timedOut:
            self = .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            self = .cannotConnect(detail)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            self = .connectionLost(detail)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            self = .tls(detail)
        case .cancelled:
            self = .cancelled
        default:
            self = .other(detail)
        }
    }
}
