import GitbayKit
import HTTPServer
import MessageAuthentication

/// The receiving end of gitbay's webhooks: judges one request to the hook's path, as a pure
/// function of the request and the secret.
///
/// The checks go cheapest and least revealing first, so an unsigned request learns nothing but
/// its refusal and its body is never parsed: the path (404), the method (405), the body's size
/// (413), the signature (401: `X-Gitbay-Signature-256` must be `sha256=` and the lowercase hex
/// HMAC-SHA256 of the exact body bytes under the secret, the raw codes compared in constant time; no secret
/// means nothing is taken), then what makes it a delivery (400: an `X-Gitbay-Delivery` that is one
/// positive decimal id, a body with `event`, `repo` and `created_at`, an `X-Gitbay-Event` that
/// names the body's event). Only the body is signed: the id and the event header are not, so they
/// are checked against the body where they can be and never trusted beyond it.
///
/// The server in front reads a body only for a ``bodyRoute``, so give it this intake's; the
/// intake checks the size again, so it is safe behind any server.
public struct WebhookIntake: Sendable, CustomStringConvertible, CustomReflectable {
    /// The path gitbay posts to, such as "/hooks/gitbay".
    public let path: String
    /// The most bytes of body taken.
    public let maxBodyBytes: Int
    /// The hook's secret, as given to `webhook add --secret`; never shown.
    private let secret: [UInt8]

    /// An intake for `path`, keyed by `secret` (empty: every delivery is refused), taking bodies of
    /// at most `maxBodyBytes` (1 MiB unless told: gitbay's event data is a few hundred bytes).
    public init(path: String, secret: [UInt8], maxBodyBytes: Int = 1 << 20) {
        self.path = path
        self.secret = secret
        self.maxBodyBytes = maxBodyBytes
    }

    /// The route a server needs to read this intake's bodies.
    public var bodyRoute: HTTPServer.BodyRoute {
        HTTPServer.BodyRoute(path: path, maxBodyBytes: maxBodyBytes)
    }

    /// What to do with `request`, by the checks in ``WebhookIntake``'s order.
    ///
    /// A request without a body is judged as one with an empty body.
    public func decide(_ request: HTTPServer.Request) -> WebhookDecision {
        guard request.path == path else { return .refused(.notFound) }
        guard request.method == "POST" else { return .refused(.methodNotAllowed) }
        let body = request.body ?? []
        guard body.count <= maxBodyBytes else { return .refused(.bodyTooLarge(limit: maxBodyBytes)) }
        guard !secret.isEmpty else { return .refused(.noSecret) }
        let signatures = Self.values(of: "X-Gitbay-Signature-256", in: request)
        guard let signature = signatures.first else { return .refused(.missingSignature) }
        guard signatures.count == 1, let given = Self.code(signedIn: signature),
            ConstantTime.isEqual(HMACSHA256.code(for: body, key: secret), given)
        else {
            return .refused(.badSignature)
        }
        let ids = Self.values(of: "X-Gitbay-Delivery", in: request)
        guard ids.count == 1, let id = Self.deliveryID(ids[0]) else {
            return .refused(.notADelivery("X-Gitbay-Delivery is not one positive decimal id"))
        }
        let delivery: GitbayDelivery
        switch GitbayDelivery.decoded(id: id, body: body) {
        case .failure(let refusal): return .refused(refusal)
        case .success(let decoded): delivery = decoded
        }
        guard Self.values(of: "X-Gitbay-Event", in: request) == [delivery.event] else {
            return .refused(.notADelivery("X-Gitbay-Event does not name the body's event"))
        }
        return .accepted(delivery)
    }

    /// The raw code a signature header carries: `sha256=` and exactly the code's 64 lowercase hex
    /// digits, or nil for anything else (which gitbay never sends).
    static func code(signedIn signature: String) -> [UInt8]? {
        let prefix = "sha256="
        guard signature.hasPrefix(prefix) else { return nil }
        let digits = signature.dropFirst(prefix.count)
        guard digits.utf8.count == 2 * HMACSHA256.codeByteCount else { return nil }
        return [UInt8](lowercaseHex: digits)
    }

    /// Whether `request` carries the headers gitbay sends with every delivery: one
    /// `X-Gitbay-Delivery` that is a positive decimal id and one `X-Gitbay-Event` that is not empty
    /// (`internal/webhook/webhook.go`, `deliver`).
    ///
    /// Neither is signed, so this tells a request that claims to be a delivery from one that does
    /// not (a scanner, a browser), never that the claim is true.
    public static func claimsDelivery(_ request: HTTPServer.Request) -> Bool {
        let ids = values(of: "X-Gitbay-Delivery", in: request)
        let events = values(of: "X-Gitbay-Event", in: request)
        return ids.count == 1 && deliveryID(ids[0]) != nil && events.count == 1 && !events[0].isEmpty
    }

    public var description: String {
        "WebhookIntake(path: \(path), maxBodyBytes: \(maxBodyBytes), secret: \(secret.count) bytes)"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["path": path, "maxBodyBytes": maxBodyBytes, "secretBytes": secret.count])
    }

    /// The values of every header field of `request` named `name`, compared without regard to case.
    private static func values(of name: String, in request: HTTPServer.Request) -> [String] {
        let name = name.lowercased()
        return request.headers.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// The id `text` spells: decimal digits only (as gitbay writes it), positive, within an Int.
    private static func deliveryID(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let id = Int(text), id > 0
        else { return nil }
        return id
    }
}
