/// Whoever may stop a command, asked by the client at the last moment before a write goes on the
/// wire, and told when that write's exchange is over.
///
/// A stop must end every wait at once and send nothing more, while a write already on its way is
/// carried to its end (its outcome must be known to be recorded). Cancelling the task says the
/// first; this closes the gap between the client's last look at the task and the send, so whoever
/// takes the stop can tell truthfully whether a write is in flight.
public protocol WriteAdmission: Sendable {
    /// Whether a write may be sent now; `false` (a stop came first) leaves it unsent. Every `true`
    /// is followed by one ``writeEnded()``.
    func admitWrite() -> Bool
    /// The exchange of an admitted write is over, answered or not.
    func writeEnded()
}
