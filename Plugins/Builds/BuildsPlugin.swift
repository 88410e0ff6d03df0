import Foundation
import GitbayKit
import MergeRequestsPlugin
import RuleEngine

/// The built-in build plugin: finds superseded builds and cancels them, never one a live ref needs.
///
/// gitbay does not cancel a branch's older builds on a new push, and cancelling the build of a
/// commit an open merge request still needs blocks that MR, so the protections are enforced twice:
/// in the `superseded` field and again as the `cancel` action's refusal.
public struct BuildsPlugin: BotPlugin {
    public let name = "Builds"

    public var kinds: [any ItemKindDefinition] { [BuildReader()] }

    public var needs: [ReadNeedDefinition] { [.refs] }

    public init() {}

    public func fields(for kind: ItemKind) -> [FieldDefinition] {
        kind == .builds ? Self.fields : []
    }

    public func actions(for kind: ItemKind) -> [ActionDefinition] {
        kind == .builds ? Self.actions : []
    }

    static let fields: [FieldDefinition] = [
        field("number", .count, doc: "The build's number in its repository.") { build, _ in .count(build.number) },
        field("job", .text, doc: "The job's name in `.gitbay/ci.yml`.") { build, _ in .text(build.job) },
        field(
            "status", .enumeration(BuildStatus.knownValues.map(\.rawValue)),
            doc: "pending (queued), running, or how it finished."
        ) { build, _ in .text(build.status.rawValue) }.selecting(),
        field(
            "ref", .text,
            doc: "The branch, tag, or `refs/merge-requests/<n>/head` for a fork merge request, that queued it."
        ) { build, _ in .text(build.ref) },
        field("ref.default", .boolean, doc: "Whether ref is the default branch; absent when that is unknown.") {
            build, context in
            context.repository.defaultBranch.map { .boolean(build.ref == $0) } ?? .absent
        },
        field("sha", .text, doc: "The commit it builds.") { build, _ in .text(build.sha) },
        field("age", .duration, doc: "Time since it was queued.") { build, context in
            .duration(max(0, context.now.timeIntervalSince(build.createdAt)))
        },
        field(
            "superseded", .boolean, needs: [.refs, .openMergeRequests],
            doc: "Pending or running with a newer build of the same ref and job, and its commit is no longer "
                + "needed: not an open MR's head, a branch tip, the default branch or a tag."
        ) { build, context in
            .boolean(Supersession.evaluate(build, in: context.repository).isSuperseded)
        },
    ]

    static let actions: [ActionDefinition] = [
        ActionDefinition(
            "cancel", needs: [.refs, .openMergeRequests],
            doc: "Cancels a pending or running build; refused when an open MR's head, a branch tip, "
                + "the default branch or a tag still needs it.",
            command: { _, context in
                try BuildCancelCommand(repository: context.repository.path, number: context.item.number).control
            },
            isDone: { _, context in
                guard let build = context.build else { return true }
                return build.status != .pending && build.status != .running
            },
            refusal: { context in
                guard let build = context.build else { return "not a build" }
                return BuildProtection.find(for: build, in: context.repository).map {
                    "build \(build.number) is protected: \($0.reason)"
                }
            }
        )
    ]

    /// A field whose value is derived from the build; another kind of item answers absent.
    private static func field(
        _ name: String, _ type: FieldType, needs: Set<ReadNeed> = [], doc: String,
        value: @escaping @Sendable (Build, ItemContext) -> FieldValue
    ) -> FieldDefinition {
        FieldDefinition(name, type, needs: needs, doc: doc) { context in
            // Read in place through the box, not copied out (`context.build`): a measurable share of evaluation.
            guard let build = context.item.box(as: Build.self)?.record else { return .absent }
            return value(build, context)
        }
    }
}
