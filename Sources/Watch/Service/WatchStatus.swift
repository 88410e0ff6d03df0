import Foundation
import GitbayClient
import RuleEngine

/// What a watcher has done and is doing, as one value: the source of `/metrics`, `/healthz`, the
/// status page and systemd's notifications.
///
/// The watcher and its client change it through ``WatchTelemetry``; readers take a copy, so a
/// scrape or a page never waits for a pass, and a pass never waits for a scrape.
public struct WatchStatus: Sendable {
    /// Why the watcher or its client waits, as `waits_total` labels it.
    public enum WaitCause: String, Sendable, CaseIterable, Comparable {
        /// The server answered 429, or refused a write as over the account's write budget.
        case rateLimit = "rate_limit"
        /// The server answered 503, or failed with a 5xx.
        case busy
        /// The network or the connection failed, or an answer was cut short or garbled.
        case transport
        /// The client's own pacing to the request budget (`--rate-limit`).
        case pacing

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The cause of waiting after `error`, `nil` when waiting cannot mend it.
        public init?(_ error: GitbayError) {
            switch error.kind {
            case .rateLimited: self = .rateLimit
            case .busy, .serverError: self = .busy
            case .transport, .malformedResponse: self = .transport
            default: return nil
            }
        }

        /// How the status page names it.
        public var phrase: String {
            switch self {
            case .rateLimit: return "the server is rate-limiting this account"
            case .busy: return "the server is busy or failing"
            case .transport: return "the server cannot be reached"
            case .pacing: return "pacing to the request budget"
            }
        }
    }

    /// A wait under way: its cause and when it ends.
    public struct Wait: Sendable, Hashable {
        public var cause: WaitCause
        public var until: Date
    }

    /// One finished pass, for the page's table.
    public struct PassRecord: Sendable, Hashable {
        public var kind: String
        public var started: Date
        public var ended: Date
        public var requests: Int
        public var actions: Int
        public var applied: Int
        public var failed: Int

        public init(
            kind: String, started: Date, ended: Date, requests: Int, actions: Int, applied: Int, failed: Int
        ) {
            self.kind = kind
            self.started = started
            self.ended = ended
            self.requests = requests
            self.actions = actions
            self.applied = applied
            self.failed = failed
        }
    }

    /// One action from the state store's journal (or, in a dry run, from the last plan).
    public struct ActionRecord: Sendable, Hashable {
        public var at: Date
        public var rule: String
        public var item: String
        public var command: String
        public var outcome: String
        public var reasons: [String]

        public init(at: Date, rule: String, item: String, command: String, outcome: String, reasons: [String]) {
            self.at = at
            self.rule = rule
            self.item = item
            self.command = command
            self.outcome = outcome
            self.reasons = reasons
        }
    }

    /// The result of the last reload of the rules.
    public struct Reload: Sendable, Hashable {
        public var at: Date
        /// `nil` when it loaded; otherwise why the old rules stay.
        public var failure: String?
    }

    /// A rule as the page lists it.
    public struct LoadedRule: Sendable, Hashable {
        public var name: String
        public var kind: String

        public init(name: String, kind: String) {
            self.name = name
            self.kind = kind
        }
    }

    /// A label pair of `actions_total`.
    public struct ActionKey: Sendable, Hashable, Comparable {
        public var rule: String
        public var outcome: String

        public init(rule: String, outcome: String) {
            self.rule = rule
            self.outcome = outcome
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.rule, lhs.outcome) < (rhs.rule, rhs.outcome) }
    }

    /// How many passes and actions the page and the metrics keep.
    public static let recentLimit = 50

    /// A count of webhook deliveries: their event kind and what came of them.
    public struct DeliveryKey: Sendable, Hashable, Comparable {
        public var event: String
        public var outcome: String

        public static func < (lhs: DeliveryKey, rhs: DeliveryKey) -> Bool {
            (lhs.event, lhs.outcome) < (rhs.event, rhs.outcome)
        }
    }

    /// The server's URL, which never carries the token.
    public var server: String
    /// The account the token belongs to, once the server said.
    public var account: String?
    public var started: Date
    public var interval: TimeInterval
    public var fullEvery: TimeInterval
    public var dryRun: Bool
    public var passes: [String: Int] = ["full": 0, "events": 0, "idle": 0]
    public var reads = 0
    public var writes = 0
    public var actions: [ActionKey: Int] = [:]
    /// The commands the passes judged that wait to be sent, or are being sent.
    public var writesWaiting = 0
    /// How often the feed is polled now: `interval`, or the relaxed pace while webhook
    /// deliveries work.
    public var pollEvery: TimeInterval
    /// Webhook deliveries by event kind and outcome (`accepted`, `duplicate`, `out-of-scope`,
    /// `bad-signature`, `too-large`, `not-a-delivery`, `inbox-full`).
    public var deliveries: [DeliveryKey: Int] = [:]
    /// When the last delivery was accepted.
    public var lastDelivery: Date?
    /// How deliveries stand (`unproven`, `working`, `failing`), when the watcher takes them.
    public var deliveryHealth: String?
    /// Events the feed showed that never came as deliveries.
    public var deliveriesMissed = 0
    /// The deliveries refused for a reason that says the bot and its hook disagree.
    var refusals = RefusedDeliveries()
    /// Whether deliveries fail: the feed showed an event none announced, or gitbay's are refused.
    public var deliveriesFailing: Bool {
        deliveryHealth == DeliveryWatch.Health.failing.rawValue || refusals.failing
    }
    /// The repositories whose events arrive only by polling (no delivery came from them).
    public var unhooked: [String] = []
    /// What the start's check of the hooks found, once it ended; `nil` while it runs (or without
    /// webhooks).
    public var hookCheck: HookCheck?

    /// The outcome of the start's check of the hooks.
    public struct HookCheck: Sendable, Hashable {
        /// What it looked at: "checked 1 repository", and what it could not.
        public var summary: String
        /// What a person should fix, one line each.
        public var problems: [String]
    }
    public var waits: [WaitCause: Int] = Dictionary(uniqueKeysWithValues: WaitCause.allCases.map { ($0, 0) })
    public var lastPassEnded: Date?
    public var lastSuccessfulPassEnded: Date?
    /// The longest successful pass so far, which sets how long a pass may be expected to take.
    public var longestPass: TimeInterval = 0
    /// When the pass under way started.
    public var passStarted: Date?
    public var currentWait: Wait?
    /// The cause of the client's last retry, which its backoff waits for.
    public var retryCause: WaitCause?
    /// When the watcher, idle between passes, polls next.
    public var nextPoll: Date?
    public var nextFullPass: Date?
    public var feedPosition: Int?
    public var rules: [LoadedRule] = []
    public var reloadFailures = 0
    public var lastReload: Reload?
    public var recentPasses: [PassRecord] = []
    public var recentActions: [ActionRecord] = []
    /// The commands that wait in the bot's own queue (a `/merge` whose gates do not pass), as
    /// the last pass that judged their item saw them.
    public var waitingCommands: [WaitingCommand] = []
    /// The rules the tripwire holds back whole, by name, with its note, as the last full pass
    /// judged them.
    public var tripped: [String: String] = [:]
    /// The repositories whose own rules file has an error, with its first (`line:column:
    /// message`), as the last full pass read them: their rules wait until it is mended.
    public var brokenRuleFiles: [String: String] = [:]

    /// A command waiting in the bot's own queue, and the item it waits on.
    public struct WaitingCommand: Sendable, Hashable {
        public var item: PlannedItem
        /// The plan's line for it (``PlanEntry/waitingNote``).
        public var note: String
    }
    /// The last failure since the last successful pass, in one line.
    public var lastFailure: String?
    /// When the watcher last showed it moves: a request sent, a wait begun, a pass begun or ended.
    public var lastProgress: Date
    /// Whether the first full pass has ended (systemd's `READY=1`).
    public var ready = false
    public var stopping = false

    public init(server: String, started: Date, interval: TimeInterval, fullEvery: TimeInterval, dryRun: Bool) {
        self.server = server
        self.started = started
        self.interval = interval
        self.fullEvery = fullEvery
        self.dryRun = dryRun
        pollEvery = interval
        lastProgress = started
    }
}
