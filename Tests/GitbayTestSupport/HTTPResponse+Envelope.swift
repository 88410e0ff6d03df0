import Foundation
import GitbayClient

extension HTTPResponse {
    /// A gitbay reply whose body is the given envelope JSON text.
    public static func gitbay(_ status: Int, _ json: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers,
            body: Data(json.utf8))
    }
}
