import Foundation

/// The webhook bodies a watcher has taken, so that a delivery gitbay sends again acts once and a
/// signed body replayed by someone else acts not at all.
///
/// gitbay signs the body only: `X-Gitbay-Delivery` is a header anyone who captured one delivery
/// can set to anything. So a delivery is known by the SHA-256 of its signed body, and the id is
/// never compared:
/// - the same id with the same body is gitbay again: it retries a delivery not answered with 2xx
///   (up to five attempts) and sends one again on `webhook redeliver` (`Redeliver` in
///   `internal/store/webhooks.go` clears the row for its next attempt), each time under the same
///   id with the body built afresh from the same event (`internal/webhook/webhook.go`, `deliver`;
///   a repository or account renamed between two attempts changes it, and the second is taken
///   too, which costs one more pass);
/// - another id with a body already taken is a replay (or a second hook on the same event): a
///   duplicate too;
/// - the same id with another body is another delivery, so a body sent first under the id gitbay
///   is about to use does not make gitbay's own a duplicate.
///
/// The bodies kept are the newest ``deliveriesKept`` taken, in the order they came, not the ones
/// with the largest ids: an attacker's id moves nothing, and a replayed body, being a duplicate,
/// is not even kept. (Refusing ids far beyond the newest seen was the other way, and still lets an
/// unsigned number decide what is kept: ids raised a step at a time push the window all the
/// same.) What a replay can still do is send, once, a signed body the bot no longer keeps: one
/// more pass over its repository, which reads the forge afresh and changes nothing the rules
/// would not. The bodies live in the state database, so a watcher started again still knows the
/// ones it took before it stopped.
public protocol DeliveryLog: Sendable {
    /// Records the body whose SHA-256 is `bodyDigest`, delivered as `id` and taken at `date`, and
    /// answers whether it is the first time; a body no longer kept is taken again.
    func takeDelivery(_ id: Int, bodyDigest: [UInt8], at date: Date) async throws -> Bool
}

extension DeliveryLog {
    /// How many of the bodies taken last a store remembers: gitbay gives up on a delivery after
    /// five attempts over minutes, and ten thousand deliveries cover far more than that.
    public static var deliveriesKept: Int { 10_000 }
}
