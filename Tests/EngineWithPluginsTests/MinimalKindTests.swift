import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Testing

/// A note of a repository: a kind no built-in plugin brings.
private struct NoteRecord: ItemRecord {
    var number: Int
    var title: String
    var updatedAt: Date? { nil }
    var known: Set<ReadNeed> { [] }
}

extension ItemKind {
    fileprivate static let notes = ItemKind(rawValue: "notes")
}

/// Notes named and listed, and nothing more: no read cache, no judgement of feed events, no part
/// of a forge-state file.
private struct NoteReader: ItemKindDefinition {
    var kind: ItemKind { .notes }
    var noun: String { "note" }
    var referenceSeparator: String { "/notes/" }
    var detailStep: String { "note details" }

    /// Two notes in every repository of the scope, made up rather than asked for.
    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        for path in try await context.repositories(in: context.scope(of: rules)) {
            context.update(path) {
                $0.setRecords([NoteRecord(number: 1, title: "keep"), NoteRecord(number: 2, title: "drop")], .notes)
            }
        }
        context.note("notes: made up", requests: 0)
    }

    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        nil
    }

    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {}
}

private struct NotePlugin: BotPlugin {
    let name = "notes"

    var kinds: [any ItemKindDefinition] { [NoteReader()] }

    func fields(for kind: ItemKind) -> [FieldDefinition] {
        guard kind == .notes else { return [] }
        return [FieldDefinition("title", .text, doc: "The note's title.") { .text($0.item.title) }]
    }

    func actions(for kind: ItemKind) -> [ActionDefinition] {
        guard kind == .notes else { return [] }
        return [
            ActionDefinition(
                "pin", doc: "Pins the note.",
                command: { _, context in
                    ControlCommand(argv: ["note", "pin", "\(context.item.number)"], effect: .write)
                },
                isDone: { _, _ in false })
        ]
    }
}

/// A reader that answers nothing: the notes are never asked for.
private final class SilentForge: ForgeReader {
    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
    }
}

private let pinRule = """
    scope: repo:krz/app
    rules:
      - name: pin-kept
        on: notes
        when:
          - title = keep
        do:
          - pin
    """

/// A kind declares its names and reads alone, and the engine takes the default of every concern
/// it does not adopt.
@Suite struct MinimalKindTests {
    let registry = PluginRegistry(plugins: [NotePlugin()])

    @Test func theRegistryFindsNoConcernTheKindDoesNotAdopt() {
        #expect(registry.naming(of: .notes)?.noun == "note")
        #expect(registry.reading(of: .notes) != nil)
        #expect(registry.cachedDetails(of: .notes) == nil)
        #expect(registry.watching(of: .notes) == nil)
        #expect(registry.stateFileList(of: .notes) == nil)
        #expect(registry.stateFileDerivation(of: .notes) == nil)
    }

    @Test func itsItemsAreListedThroughTheContextAndPlanned() async throws {
        let rules = RuleSet.load(files: [(path: "pin.yml", bytes: Array(pinRule.utf8))], registry: registry).rules
        let (state, report) = try await ReadPlanner(registry: registry).read(
            rules, from: SilentForge(), at: now, policy: ReadPolicy(.audit), basis: ReadBasis(me: "bot"))
        #expect(report.steps == ["notes: made up (0 requests)"])
        let plan = Evaluator(registry: registry).plan(rules: rules, state: state, source: "t")
        #expect(plan.entries.map(\.item.reference) == ["krz/app/notes/1"])
        #expect(plan.entries.flatMap(\.actions).map(\.status) == [.pending])
    }

    /// Without a judgement of its own, any event may have changed any note of its repository.
    @Test func anyEventTouchesEveryNoteOfItsRepository() throws {
        let app = try RepositoryPath("krz/app")
        let event = FeedEvent(id: 1, repo: app, actor: "alice", kind: "issue.commented", number: 7, createdAt: now)
        let targets = WatchTargets.of([event], me: "bot", kinds: [.notes], registry: registry)
        #expect(targets.wholeKinds == [app: [.notes]])
        #expect(targets.items.isEmpty)
    }
}

/// Notes whose reader judges an event by its repository, as a kind may: only `krz/app`'s note
/// events touch them.
private struct RepositoryNoteReader: ItemKindDefinition, WatchedKind {
    private let notes = NoteReader()
    var kind: ItemKind { notes.kind }
    var noun: String { notes.noun }
    var referenceSeparator: String { notes.referenceSeparator }
    var detailStep: String { notes.detailStep }

    func list(_ rules: [Rule], into context: inout ReadContext) async throws {
        try await notes.list(rules, into: &context)
    }

    func refresh(
        _ item: PlannedItem, needs: Set<ReadNeed>, in context: inout ReadContext
    ) async throws -> (item: Item, repository: RepositoryState)? {
        try await notes.refresh(item, needs: needs, in: &context)
    }

    func snapshot(
        _ paths: [RepositoryPath], scope: RuleScope, allStates: Bool, into context: inout ReadContext
    ) async throws {
        try await notes.snapshot(paths, scope: scope, allStates: allStates, into: &context)
    }

    func watches(family: String) -> Bool { family == "note" }

    func watchEffect(of event: FeedEvent) -> WatchEffect {
        watches(family: event.family) && event.repo.description == "krz/app" ? .wholeRepository : .none
    }
}

/// Finds notes that moved with no event: raises `note.moved`.
private struct NoteProbe: QuietChangeProbe {
    var eventKind: String { "note.moved" }

    func look(in scope: RuleScope, reader: any ForgeReader) async throws -> ProbeLook {
        ProbeLook(entries: [])
    }
}

private struct WatchedNotePlugin: BotPlugin {
    let name = "watched-notes"
    var kinds: [any ItemKindDefinition] { [RepositoryNoteReader()] }
    var probes: [any QuietChangeProbe] { [NoteProbe()] }
    func fields(for kind: ItemKind) -> [FieldDefinition] { [] }
    func actions(for kind: ItemKind) -> [ActionDefinition] { [] }
}

/// Which probes a watcher polls is asked of each kind by the family of the probe's events alone.
@Suite struct ProbeSelectionTests {
    /// A made-up sample event (of some repository no rule names) would find the notes untouched
    /// and the probe never polled.
    @Test func aKindThatJudgesByRepositoryStillHasItsProbePolled() {
        let registry = PluginRegistry(plugins: [WatchedNotePlugin()])
        #expect(WatchTargets.probes(for: [.notes], registry: registry).map(\.eventKind) == ["note.moved"])
    }
}
