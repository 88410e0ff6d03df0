import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import MilestonesPlugin
import RuleEngine
import Testing

@Suite struct RegistryTests {
    static let fieldNeedCases: [(ItemKind, String, Set<ReadNeed>)] = [
        (ItemKind.issues, "number", []), (.issues, "title", []), (.issues, "state", []),
        (.issues, "author", []), (.issues, "milestone", []), (.issues, "created_at", []),
        (.issues, "updated_at", [.activity]), (.issues, "age", []), (.issues, "idle", [.activity]),
        (.issues, "labels", [.labels]), (.issues, "assignees", [.detail, .freshDetail]),
        (.issues, "comments", [.detail]),
        (.issues, "last_comment.author", [.detail]), (.issues, "last_comment.at", [.detail]),
        (.issues, "tracking_issue", [.dependencies]),
        (.issues, "quiet", [.detail, .activity]), (.issues, "last_person_comment.author", [.detail]),
        (.issues, "last_person_comment.at", [.detail]), (.issues, "waiting_on", [.detail]),
        (.issues, "my_last_comment.age", [.detail]),
        (.mergeRequests, "number", []), (.mergeRequests, "title", []), (.mergeRequests, "state", []),
        (.mergeRequests, "author", []), (.mergeRequests, "source", [.detail]),
        (.mergeRequests, "target_ref", [.detail]),
        (.mergeRequests, "head_sha", [.detail]), (.mergeRequests, "milestone", []), (.mergeRequests, "created_at", []),
        (.mergeRequests, "draft", []), (.mergeRequests, "labels", [.labels]), (.mergeRequests, "stacked_on", [.detail]),
        (.mergeRequests, "stack.landed", [.detail, .allMergeRequests]),
        (.mergeRequests, "stack.parent", [.detail, .allMergeRequests]),
        (.mergeRequests, "checks", [.detail, .freshDetail]),
        (.mergeRequests, "approvals", [.detail, .freshDetail]), (.mergeRequests, "queued", [.detail, .freshDetail]),
        (.mergeRequests, "idle", [.activity]),
        (.mergeRequests, "quiet", [.detail, .freshDetail, .activity]),
        (.mergeRequests, "last_person_comment.author", [.detail, .freshDetail]),
        (.mergeRequests, "last_person_comment.at", [.detail, .freshDetail]),
        (.mergeRequests, "waiting_on", [.detail, .freshDetail]),
        (.mergeRequests, "my_last_comment.age", [.detail, .freshDetail]),
        (.builds, "number", []), (.builds, "job", []), (.builds, "status", []), (.builds, "ref", []),
        (.builds, "ref.default", []), (.builds, "sha", []), (.builds, "age", []),
        (.builds, "superseded", [.refs, .openMergeRequests]),
    ]

    static let actionCases: [(ItemKind, String, ActionArgumentKind, Set<ReadNeed>)] = [
        (ItemKind.issues, "add-label", ActionArgumentKind.labels, [.labels]),
        (.issues, "remove-label", .labels, [.labels]), (.issues, "comment", .text, [.detail]),
        (.issues, "close", .none, []), (.issues, "reopen", .none, []),
        (.issues, "assign", .users, [.detail, .freshDetail]),
        (.issues, "unassign", .users, [.detail, .freshDetail]), (.issues, "milestone", .milestone, []),
        (.mergeRequests, "ready", .none, [.detail]), (.mergeRequests, "draft", .none, []),
        (.mergeRequests, "add-label", .labels, [.labels]), (.mergeRequests, "remove-label", .labels, [.labels]),
        (.mergeRequests, "comment", .text, [.detail, .freshDetail]), (.mergeRequests, "close", .none, []),
        (.builds, "cancel", .none, [.refs, .openMergeRequests]),
    ]

    @Test func theBuiltinPluginsDoNotConflict() {
        #expect(Fixtures.registry.conflicts.isEmpty)
        #expect(Fixtures.registry.pluginNames == ["Issues", "MergeRequests", "Builds", "Milestones"])
    }

    /// Each built-in kind adopts the concerns it has something to say about, and no other:
    /// milestones keep no details in the read cache and have no list of their own in a forge-state
    /// file, whose repository `milestones` they are made from.
    @Test(arguments: [
        (ItemKind.issues, ["cache", "watch", "list", "derivation"]),
        (.mergeRequests, ["cache", "watch", "list", "derivation"]), (.builds, ["watch", "list", "derivation"]),
        (.milestones, ["watch", "derivation"]),
    ])
    func concernsOfEachKind(kind: ItemKind, concerns: [String]) {
        let registry = Fixtures.registry
        let adopted: [(String, Bool)] = [
            ("cache", registry.cachedDetails(of: kind) != nil), ("watch", registry.watching(of: kind) != nil),
            ("list", registry.stateFileList(of: kind) != nil),
            ("derivation", registry.stateFileDerivation(of: kind) != nil),
        ]
        #expect(adopted.filter(\.1).map(\.0) == concerns)
    }

    /// Every field with exactly the reads it needs: a field that reads labels declares `.labels`,
    /// and a row field declares nothing, so the planner neither misses a read nor wastes one.
    @Test(arguments: fieldNeedCases)
    func fieldNeeds(expected: (ItemKind, String, Set<ReadNeed>)) throws {
        let (kind, name, needs) = expected
        let field = try #require(Fixtures.registry.field(name, for: kind))
        #expect(field.needs == needs)
        #expect(!field.doc.isEmpty && !field.doc.contains("\n"))
    }

    @Test(arguments: BuiltinPlugins.registry.kinds)
    func everyFieldIsInTheNeedsTable(kind: ItemKind) {
        let counts: [ItemKind: Int] = [.issues: 20, .mergeRequests: 23, .builds: 8, .milestones: 8]
        #expect(Fixtures.registry.fields(for: kind).count == counts[kind])
    }

    @Test(arguments: actionCases)
    func actionArgumentsAndNeeds(
        expected: (ItemKind, String, ActionArgumentKind, Set<ReadNeed>)
    ) throws {
        let (kind, name, argument, needs) = expected
        let action = try #require(Fixtures.registry.action(name, for: kind))
        #expect(action.argument == argument)
        #expect(action.needs == needs)
    }

    /// The conditions of the shipped rule files type-check against the plugins' fields.
    @Test(arguments: [
        (ItemKind.issues, "state = open"), (.issues, "idle > 60d"), (.issues, "labels lacks [stale, pinned, security]"),
        (.issues, "not tracking_issue"), (.issues, "labels has stale"), (.issues, "last_comment.author != @me"),
        (.issues, "last_comment.author = @me"), (.issues, "idle > 14d"), (.mergeRequests, "state = open"),
        (.mergeRequests, "draft"), (.mergeRequests, "stack.landed"), (.builds, "status in [pending, running]"),
        (.builds, "superseded"), (.builds, "not ref.default"),
    ])
    func shippedConditionsCheck(kind: ItemKind, text: String) throws {
        _ = try CheckedCondition.check(
            try ConditionExpression.parse(text), fields: Fixtures.registry.fieldSpecs(for: kind))
    }

    @Test func shippedTemplatesNameKnownFields() throws {
        let issueTemplate = try Template(parsing: "No activity for {{ idle }}; marking stale.")
        let mrTemplate = try Template(parsing: "!{{ stack.parent }} merged, so this one is ready for review.")
        #expect(issueTemplate.fieldNames.allSatisfy { Fixtures.registry.field($0, for: .issues) != nil })
        #expect(mrTemplate.fieldNames.allSatisfy { Fixtures.registry.field($0, for: .mergeRequests) != nil })
    }

    /// Whether every condition holds for `context`, evaluated the way the engine does.
    private func allHold(_ conditions: [String], _ context: ItemContext) throws -> Bool {
        try conditions.allSatisfy { text in
            let checked = try CheckedCondition.check(
                try ConditionExpression.parse(text), fields: Fixtures.registry.fieldSpecs(for: context.item.kind))
            let value = try #require(Fixtures.value(checked.field.name, context))
            return checked.holds(for: value, me: Fixtures.me)
        }
    }

    @Test func theStaleRuleMatchesAnIdleIssueButNotTheTrackingIssue() throws {
        let stale = ["state = open", "idle > 60d", "labels lacks [stale, pinned, security]", "not tracking_issue"]
        let issue = Fixtures.issue(labels: ["docs"], updatedAt: Fixtures.ago(days: 61))
        #expect(try allHold(stale, Fixtures.context(issue)))
        let tracking = Fixtures.context(issue, dependencies: DependencyStatus(enabled: true, issueNumber: 188))
        #expect(try !allHold(stale, tracking))
        let pinned = Fixtures.issue(labels: ["pinned"], updatedAt: Fixtures.ago(days: 61))
        #expect(try !allHold(stale, Fixtures.context(pinned)))
    }

    @Test func theCloseRuleNeedsTheBotToHaveTheLastWord() throws {
        let close = ["state = open", "labels has stale", "last_comment.author = @me", "idle > 14d"]
        let unstale = ["state = open", "labels has stale", "last_comment.author != @me"]
        let quiet = Fixtures.issue(
            labels: ["stale"], comments: [Fixtures.comment(Fixtures.me, "Idle.", daysAgo: 15)],
            updatedAt: Fixtures.ago(days: 15))
        #expect(try allHold(close, Fixtures.context(quiet)))
        #expect(try !allHold(unstale, Fixtures.context(quiet)))
        var answered = quiet
        answered.comments.append(Fixtures.comment("alice", "Still needed.", daysAgo: 2))
        answered.updatedAt = Fixtures.ago(days: 2)
        #expect(try !allHold(close, Fixtures.context(answered)))
        #expect(try allHold(unstale, Fixtures.context(answered)))
    }

    @Test func theStackRuleAndTheBuildRuleMatchTheDomainExamples() throws {
        let landed = Fixtures.mergeRequest(comments: [Fixtures.system(Fixtures.retargeted, daysAgo: 1)])
        #expect(try allHold(["state = open", "draft", "stack.landed"], Fixtures.context(landed)))
        let builds = [
            Fixtures.build(4214, sha: Fixtures.sha("c3")),
            Fixtures.build(4213, status: .running, sha: Fixtures.sha("b2")),
        ]
        let repository = Fixtures.buildRepository(builds: builds)
        let rule = ["status in [pending, running]", "superseded", "not ref.default"]
        #expect(try allHold(rule, Fixtures.context(builds[1], in: repository)))
        #expect(try !allHold(rule, Fixtures.context(builds[0], in: repository)))
    }
}
