import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine

/// Hand-built forge state for the plugin tests: one repository, a fixed clock and the bot `gitbay-bot`.
enum Fixtures {
    static let registry = BuiltinPlugins.registry
    static let me = "gitbay-bot"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let day: Double = 86_400
    static let marker = "<!-- gitbay-bot:rule=stale -->"

    static let path = (try? RepositoryPath("krz/gitbay"))!

    /// `days` days before ``now``.
    static func ago(days: Double) -> Date {
        now.addingTimeInterval(-days * day)
    }

    static func issue(
        number: Int = 188, state: IssueState = .open, author: String = "cmc", milestone: String? = nil,
        labels: [String] = [], assignees: [String] = [], comments: [GitbayKit.Comment] = [],
        createdAt: Date = ago(days: 90), updatedAt: Date? = ago(days: 70)
    ) -> GitbayKit.Issue {
        GitbayKit.Issue(
            number: number, title: "Document the hook socket threat model", state: state, author: author,
            milestone: milestone, labels: labels, assignees: assignees, comments: comments, createdAt: createdAt,
            updatedAt: updatedAt)
    }

    static func comment(
        _ author: String, _ body: String, daysAgo: Double, kind: CommentKind? = nil
    )
        -> GitbayKit.Comment
    {
        GitbayKit.Comment(author: author, body: body, createdAt: ago(days: daysAgo), kind: kind)
    }

    static func system(_ body: String, daysAgo: Double) -> GitbayKit.Comment {
        GitbayKit.Comment(author: "system", body: body, createdAt: ago(days: daysAgo), kind: .system)
    }

    static func context(
        _ issue: GitbayKit.Issue, known: Set<ReadNeed> = Set(Fixtures.registry.needs),
        dependencies: DependencyStatus? = nil, automation: Set<String> = [], activity: [ItemActivity] = []
    ) -> ItemContext {
        let record = IssueRecord(issue: issue, known: known)
        var repository = RepositoryState(path: path, defaultBranch: "main", known: known)
        repository.dependencies = dependencies
        repository.issues = [record]
        if !activity.isEmpty {
            repository.activity[ItemActivityKey(kind: Item.issue(record).kind, number: issue.number)] = activity
        }
        return ItemContext(
            item: .issue(record), repository: repository, now: now, me: me, registry: registry,
            automation: automation)
    }

    static func mergeRequest(
        number: Int = 160, state: MergeRequestState = .open, draft: Bool = true, source: String = "stack-2-runners",
        targetRef: String = "main", headSHA: String = sha("9f"), labels: [String] = [],
        stackedOn: MergeRequestRef? = nil, comments: [GitbayKit.Comment] = [], reviews: [Review] = [],
        checksCombined: CheckState? = nil, queued: QueuedMerge? = nil, updatedAt: Date? = nil
    ) -> MergeRequest {
        MergeRequest(
            number: number, title: "runners: attach keys per repository", state: state, draft: draft, author: "cmc",
            source: source, targetRef: targetRef, headSHA: headSHA, labels: labels, stackedOn: stackedOn,
            checksCombined: checksCombined, comments: comments, reviews: reviews, queued: queued,
            createdAt: ago(days: 30), updatedAt: updatedAt)
    }

    static let retargeted = "retargeted from stack-1-reaper to main: !159 merged"

    /// The MR as a context, with `others` as the repository's other merge requests.
    static func context(
        _ mr: MergeRequest, others: [MergeRequest] = [], known: Set<ReadNeed> = Set(Fixtures.registry.needs),
        automation: Set<String> = []
    ) -> ItemContext {
        let all = Set(Self.registry.needs)
        let record = MergeRequestRecord(mergeRequest: mr, known: known)
        var repository = RepositoryState(path: path, defaultBranch: "main", known: known)
        repository.mergeRequests = [record] + others.map { MergeRequestRecord(mergeRequest: $0, known: all) }
        return ItemContext(
            item: .mergeRequest(record), repository: repository, now: now, me: me, registry: registry,
            automation: automation)
    }

    /// A 40-hex sha made of `prefix` repeated, so tests can tell commits apart at a glance.
    static func sha(_ prefix: String) -> String {
        String(String(repeating: prefix, count: 40).prefix(40))
    }

    static func build(
        _ number: Int, job: String = "test", status: BuildStatus = .pending, sha: String, ref: String = "feat-x"
    ) -> Build {
        Build(number: number, job: job, status: status, sha: sha, ref: ref, createdAt: ago(days: 1))
    }

    /// A repository for build tests: `main` at `aa…`, `feat-x` at `c3…`, tag `v1.0` and the given open MRs.
    static func buildRepository(
        builds: [Build], mergeRequests: [MergeRequest] = [], branches: [RepositoryRef]? = nil,
        tags: [RepositoryRef] = [RepositoryRef(name: "v1.0", sha: sha("e1"))], defaultBranch: String? = "main",
        refsRead: Bool = true, openMergeRequestsRead: Bool = true
    ) -> RepositoryState {
        let refs = RepositoryRefs(
            branches: branches ?? [
                RepositoryRef(name: "main", sha: sha("aa")), RepositoryRef(name: "feat-x", sha: sha("c3")),
            ],
            tags: tags)
        var known: Set<ReadNeed> = []
        if refsRead { known.insert(.refs) }
        if openMergeRequestsRead { known.insert(.openMergeRequests) }
        var repository = RepositoryState(path: path, defaultBranch: defaultBranch, known: known)
        repository.refs = refsRead ? refs : nil
        repository.mergeRequests = mergeRequests.map {
            MergeRequestRecord(mergeRequest: $0, known: [.detail, .freshDetail])
        }
        repository.builds = builds
        return repository
    }

    static func context(_ build: Build, in repository: RepositoryState) -> ItemContext {
        ItemContext(item: .build(build), repository: repository, now: now, me: me, registry: registry)
    }

    /// The request a rule would make, with the stale rule's marker.
    static func request(_ argument: ActionArgument = .none) -> ActionRequest {
        ActionRequest(argument: argument, rule: "stale", marker: marker)
    }

    /// The value of field `name` for `context`, looked up in the registry like the engine does.
    static func value(_ name: String, _ context: ItemContext) -> FieldValue? {
        registry.field(name, for: context.item.kind)?.value(context)
    }

    static func action(_ name: String, _ kind: ItemKind) -> ActionDefinition? {
        registry.action(name, for: kind)
    }
}
