import Foundation
import GitbayKit
import RuleEngine

/// The built-in milestone plugin: milestones as items, with their due dates and how many of their
/// items are still open, and the actions that close and reopen them.
///
/// Everything a rule tests is in the `milestone list` row, so there is nothing to read beyond it.
public struct MilestonesPlugin: BotPlugin {
    public let name = "Milestones"

    public var kinds: [any ItemKindDefinition] { [MilestoneReader()] }

    public init() {}

    public func fields(for kind: ItemKind) -> [FieldDefinition] {
        kind == .milestones ? Self.fields : []
    }

    public func actions(for kind: ItemKind) -> [ActionDefinition] {
        kind == .milestones ? Self.actions : []
    }

    static let fields: [FieldDefinition] = [
        field("title", .text, doc: "The milestone's title, which names it.") { .text($0.title) },
        field("state", .enumeration(["open", "closed"]), doc: "Whether the milestone is open.") {
            .text($0.state)
        }.selecting(),
        field("due", .timestamp, doc: "The due date (midnight UTC of its day); absent when it has none.") {
            dueDate($0).map { .timestamp($0) } ?? .absent
        },
        FieldDefinition(
            "overdue", .duration, doc: "Time since the due date, 0 before it; absent without one."
        ) { context in
            guard let milestone = context.milestone, let due = dueDate(milestone) else { return .absent }
            return .duration(max(0, context.now.timeIntervalSince(due)))
        },
        field("open_items", .count, doc: "Its open issues and open merge requests, as `milestone list` counts them.") {
            .count($0.openCount)
        },
        field(
            "closed_items", .count,
            doc: "Its closed issues and merged or closed merge requests, counted alike: gitbay's milestone tells "
                + "merged from abandoned apart nowhere."
        ) {
            .count($0.closedCount)
        },
        field("description", .text, doc: "The milestone's description; absent when it has none.") {
            $0.description.map { .text($0) } ?? .absent
        },
        field("org", .boolean, doc: "Whether it is the organisation's milestone, shown in the repository's list.") {
            .boolean($0.org ?? false)
        },
    ]

    static let actions: [ActionDefinition] = [state(.close), state(.reopen)]

    /// `close` or `reopen`: done when the milestone is already so; refused for an organisation's
    /// milestone, which gitbay manages only through `org milestone close|reopen`.
    private static func state(_ change: MilestoneStateCommand.Change) -> ActionDefinition {
        let wanted = change == .close ? "closed" : "open"
        return ActionDefinition(
            change.rawValue,
            doc: change == .close
                ? "Closes the milestone; done when it is closed. Refused for an organisation's milestone."
                : "Reopens the milestone; done when it is open. Refused for an organisation's milestone.",
            command: { _, context in
                MilestoneStateCommand(change, repository: context.repository.path, title: context.item.key).control
            },
            isDone: { _, context in context.milestone?.state == wanted },
            refusal: { context in
                guard let milestone = context.milestone, milestone.org == true else { return nil }
                return "\(milestone.title) is an organisation's milestone; gitbay changes it only with "
                    + "org milestone \(change.rawValue), which the bot does not send"
            })
    }

    /// The due date as the start of its day in UTC; `nil` without one or when it is not a date.
    static func dueDate(_ milestone: Milestone) -> Date? {
        milestone.due.flatMap { try? Date.ISO8601FormatStyle().year().month().day().parse($0) }
    }

    /// A field derived from the milestone; another kind of item answers absent.
    private static func field(
        _ name: String, _ type: FieldType, doc: String, value: @escaping @Sendable (Milestone) -> FieldValue
    ) -> FieldDefinition {
        FieldDefinition(name, type, doc: doc) { context in
            guard let box = context.item.box(as: MilestoneRecord.self) else { return .absent }
            return value(box.record.milestone)
        }
    }
}
