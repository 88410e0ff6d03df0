import Foundation

/// The ids of the webhook deliveries a watcher has taken, so that a delivery gitbay sends again
/// acts once.
///
/// gitbay retries a delivery its receiver did not answer with 2xx (up to five attempts) and sends
/// one again on `webhook redeliver`, each time with the same `X-Gitbay-Delivery` id
/// (`internal/webhook/webhook.go`, `deliver`). The ids live in the state database, so a watcher
/// started again still knows the ones it took before it stopped.
public protocol DeliveryLog: Sendable {
    /// Records delivery `id`, taken at `date`, and answers whether it is the first time.
    ///
    /// A store keeps the ids within ``deliveriesKept`` of the newest: gitbay numbers deliveries
    /// in one sequence per server. An id older than that answers `false` too: the bot cannot tell
    /// whether it took it, and errs toward leaving it (the sweep covers what it would have named).
    func takeDelivery(_ id: Int, at date: Date) async throws -> Bool
}

extension DeliveryLog {
    /// How far below the newest delivery id a store remembers: gitbay gives up on a delivery
    /// after five attempts over minutes, and ten thousand deliveries cover far more than that.
    public static var deliveriesKept: Int { 10_000 }
}
