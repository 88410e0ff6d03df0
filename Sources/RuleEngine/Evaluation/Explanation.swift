import Foundation

/// Why one item is or is not acted on: every rule of its kind, with each condition's observed value.
///
/// `explain` builds this from the Evaluator and renders it as text, JSON (`gitbay-bot-explain/1`,
/// fields only ever added) or Markdown, so a surprising plan can be traced to the value behind it.
public struct Explanation: Sendable, Hashable, Codable {
    /// The format marker of this version of the schema.
    public static let currentFormat = "gitbay-bot-explain/1"

    /// A rule's verdict on the item.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Every condition held; the rule acts (or its actions are done, refused or held).
        case matched
        /// A condition did not hold.
        case notMatched = "not-matched"
        /// The answer depends on a value that was not read.
        case unknown
    }

    /// A rule's schedule and whether it was open at the evaluation instant.
    public struct ScheduleResult: Sendable, Hashable, Codable {
        /// The schedule in words: `mon, tue 09:00-17:00 Europe/Berlin`.
        public var window: String
        public var open: Bool
        /// When it next opens, for a schedule that is closed.
        public var nextOpening: Date?
        /// The next opening as the schedule's zone reads it: `Mon 2026-11-30 09:00 Europe/Berlin`.
        public var nextWindow: String?

        /// The verdict of `schedule` at `date`.
        public init(_ schedule: Schedule, at date: Date) {
            let verdict = schedule.verdict(at: date)
            window = schedule.summary
            open = verdict.open
            nextOpening = verdict.nextOpening
            nextWindow = verdict.nextOpening.map(schedule.localTime(of:))
        }
    }

    /// One rule of the item's kind and how it fared on the item.
    public struct RuleResult: Sendable, Hashable, Codable {
        public var name: String
        public var description: String?
        /// Where the rule is written, `file:line:column`.
        public var location: String
        /// Whether the rule's scope includes the item's repository; a rule out of scope never matches.
        public var inScope: Bool
        public var verdict: Verdict
        /// Every condition the rule evaluated, in order, with its observed value.
        public var conditions: [ConditionResult]
        /// What the rule would do to the item; held actions carry the limit or guard in their note.
        public var actions: [PlannedAction]
        /// The first condition that did not hold, for a rule in scope that did not match.
        public var nearestMiss: ConditionResult?
        /// The rule's schedule and its verdict; absent for a rule without one.
        public var schedule: ScheduleResult?
        /// Why the rule's listing leaves the item out, when it does: the rule requires a value of
        /// the kind's selection field that the server filters by (`state = open` lists open issues
        /// only), so a plan never looks at the item, whatever the other conditions say.
        public var outsideListing: String?
        /// For a rule with a command: each command in the item's comments the rule answers now
        /// (who gave it, in which comment, with what arguments); absent for a rule without one.
        public var commands: [PlannedCommand]?
        /// The fields the rule waits on for the item, when it does not match only because the item
        /// has no value of them yet (``Plan/Waiting``); absent otherwise.
        public var waitsOn: [String]?

        /// A rule's result; `nearestMiss` is derived: the first failing condition of an in-scope,
        /// non-matching rule.
        public init(
            name: String, description: String?, location: String, inScope: Bool, verdict: Verdict,
            conditions: [ConditionResult], actions: [PlannedAction], schedule: ScheduleResult? = nil,
            outsideListing: String? = nil, commands: [PlannedCommand]? = nil, waitsOn: [String]? = nil
        ) {
            self.name = name
            self.description = description
            self.location = location
            self.inScope = inScope
            self.verdict = verdict
            self.conditions = conditions
            self.actions = actions
            self.schedule = schedule
            self.outsideListing = outsideListing
            self.commands = commands
            self.waitsOn = waitsOn
            self.nearestMiss =
                inScope && verdict == .notMatched ? conditions.first { $0.holds == false } : nil
        }
    }

    public var format: String
    /// The instant the rules were evaluated at.
    public var evaluatedAt: Date
    /// The bot's account.
    public var me: String
    /// Where the state came from: the server's URL, or `snapshot:<file>`.
    public var source: String
    public var item: PlannedItem
    /// Every rule of the item's kind, in rule-file order.
    public var rules: [RuleResult]
    /// Guards that tripped during the evaluation (the tripwire, a rule's limit, the action cap).
    public var guards: [String]

    public init(
        evaluatedAt: Date, me: String, source: String, item: PlannedItem, rules: [RuleResult], guards: [String]
    ) {
        self.format = Self.currentFormat
        self.evaluatedAt = evaluatedAt
        self.me = me
        self.source = source
        self.item = item
        self.rules = rules
        self.guards = guards
    }
}
