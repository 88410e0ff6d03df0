import Foundation

/// One pass's line on stdout: text for people, or a JSON line for log shippers.
///
/// The JSON is this value encoded with its keys sorted, as it has been printed since the first
/// watcher (`PassLineTests` pins its bytes), so a parser written against an older bot reads it.
public struct PassLine: Encodable, Sendable, Hashable {
    /// When the pass ended, by the wall clock, to the second.
    public var at: String
    /// The pass's kind: `full`, `events` or `idle`.
    public var pass: String
    public var events: Int
    public var ownEvents: Int
    public var unannounced: Int
    public var items: Int
    public var requests: Int
    public var actions: Int
    public var applied: Int
    public var failed: Int
    public var waiting: Int
    /// How long the pass took, to the millisecond.
    public var seconds: Double

    private enum CodingKeys: String, CodingKey {
        case at, pass, events, unannounced, items, requests, actions, applied, failed, waiting, seconds
        case ownEvents = "own_events"
    }

    /// The line of `summary`, a pass that ended `at`.
    public init(_ summary: PassSummary, at: String) {
        self.at = at
        pass = summary.kind.rawValue
        events = summary.events
        ownEvents = summary.ownEvents
        unannounced = summary.unannounced
        items = summary.items
        requests = summary.requests
        actions = summary.actions
        applied = summary.applied
        failed = summary.failed
        waiting = summary.waiting
        seconds = (summary.seconds * 1000).rounded() / 1000
    }

    /// The line for people, which the status page and systemd's `STATUS=` show too; failures and
    /// waiting commands only when there are some.
    public var text: String {
        "\(at) \(pass) pass: \(events) events (\(ownEvents) own), \(unannounced) unannounced changes, "
            + "\(items) items, \(requests) requests, \(actions) actions, \(applied) applied"
            + (failed > 0 ? ", \(failed) failed" : "") + (waiting > 0 ? ", \(waiting) waiting" : "")
    }

    /// The JSON line, its keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
