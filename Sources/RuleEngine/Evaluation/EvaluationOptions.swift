import Foundation

/// The guards against mass actions, applied while a plan is made.
public struct EvaluationOptions: Sendable, Hashable {
    /// The most commands one run may send (`--max-actions`).
    public var maxActions: Int
    /// The tripwire's share: a rule acting on more than this share of the items it looked at, and
    /// on more than ``tripwireFloor`` items, is held back entirely unless ``force`` is set.
    public var tripwireShare: Double
    /// The tripwire's floor, which keeps a handful of items in a small repository from tripping it.
    public var tripwireFloor: Int
    /// Lets a rule past the tripwire (`--force`); limits and the action cap still hold.
    public var force: Bool
    /// The rules let past the tripwire by name (`--force-rule`), the others still guarded: one
    /// backlog someone has looked at does not lift the guard for every rule.
    public var forcedRules: Set<String> = []
    /// Commands of the cap kept for what earlier runs left half done, which the applier finishes
    /// first: they are sent by this run too, so the plan gets only the rest.
    public var reserved = 0

    /// How far back a command in a comment still counts (`command-window`): older ones are left
    /// alone, so a bot switched on, or back after an outage longer than this, never acts on
    /// requests people have long moved past.
    public var commandWindow: TimeInterval = Self.defaultCommandWindow

    /// The most commands one repository's own rules may send in one run (`repository_rules:
    /// max_actions:`), so one repository's file cannot take the run's writes from the others';
    /// `nil` for no share of its own (the run's cap still holds).
    public var repositoryShare: Int?

    /// The most comments one run answers with nothing but a refusal.
    ///
    /// Each reply (to `/label` by someone who may not give it, say) is a write against gitbay's
    /// 12 a minute, and nobody's commands should take the run's writes from the rules. The rest
    /// are answered by the next runs.
    public var repliesPerRun = 10

    /// The most commands one comment may give to be carried out: its answer is one unit that a
    /// run sends whole, and fifty `/label` lines are a mistake or a prank, not fifty requests.
    public var commandsPerComment = 10

    /// Three days: a scheduled bot down over a weekend still answers Friday's commands.
    public static let defaultCommandWindow: TimeInterval = 3 * 86_400

    /// The commands the plan may send: the cap less what is ``reserved``.
    public var budget: Int { max(0, maxActions - reserved) }

    public init(maxActions: Int = 50, tripwireShare: Double = 0.25, tripwireFloor: Int = 10, force: Bool = false) {
        self.maxActions = maxActions
        self.tripwireShare = tripwireShare
        self.tripwireFloor = tripwireFloor
        self.force = force
    }

    /// The share of `considered` items that `acting` is (0 when none were considered).
    public func share(acting: Int, considered: Int) -> Double {
        considered == 0 ? 0 : Double(acting) / Double(considered)
    }

    /// Whether an entry of `commands` commands can never fit in one run's cap, so it is held
    /// alone instead of holding back everything after it; a cap of 0 sends nothing at all.
    public func exceedsCap(_ commands: Int) -> Bool {
        maxActions > 0 && commands > maxActions
    }

    /// Whether `rule` acting on `acting` of the `considered` items it looked at trips the tripwire;
    /// the one test the evaluator holds a rule back by and the read planner reads towards.
    ///
    /// What the rule would do is counted: no more than its `limit:`, which already bounds a run
    /// (``counted(acting:rule:)``).
    public func trips(acting: Int, considered: Int, rule: Rule) -> Bool {
        let counted = counted(acting: acting, rule: rule)
        return !force && !forcedRules.contains(rule.name) && counted > tripwireFloor
            && share(acting: counted, considered: considered) > tripwireShare
    }

    /// The entries of `rule`'s `acting` that a run would act on: at most its `limit:`.
    public func counted(acting: Int, rule: Rule) -> Int {
        rule.limit.map { min($0, acting) } ?? acting
    }
}
