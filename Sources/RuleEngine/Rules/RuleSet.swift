import CommentCommands
import Foundation
import YAML

/// The rules of one run, loaded from files and checked, with every diagnostic found on the way.
public struct RuleSet: Sendable {
    public var rules: [Rule]
    /// Errors and warnings in file and position order; the set is usable only when none is an error.
    public var diagnostics: [Diagnostic]
    /// The bytes of every file read, by path, for rendering source lines under diagnostics.
    public var sources: [String: [UInt8]]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    public init(rules: [Rule], diagnostics: [Diagnostic], sources: [String: [UInt8]]) {
        self.rules = rules
        self.diagnostics = diagnostics
        self.sources = sources
    }

    /// Loads and checks rule files given as (path, bytes), in the order given.
    ///
    /// - Parameters:
    ///   - scopeOverride: a scope that replaces every file's and rule's own (`--scope`).
    ///   - defaultSchedule: the schedule of every rule that writes none (`gitbay-bot.yml`'s `schedule:`).
    ///   - confinement: for a repository's own rules file, its repository and what the operator
    ///     forbids there; its rules then act on that repository only, and `scopeOverride` is not used.
    ///     `files` are then its layers, the bases its `extends:` reaches first (``RuleLayers``).
    public static func load(
        files: [(path: String, bytes: [UInt8])], registry: PluginRegistry, scopeOverride: RuleScope? = nil,
        defaultSchedule: Schedule? = nil, confinement: RepositoryConfinement? = nil
    ) -> RuleSet {
        var compiler = RuleCompiler(
            registry: registry, scopeOverride: scopeOverride, defaultSchedule: defaultSchedule,
            confinement: confinement)
        var rules: [Rule] = []
        var names: [Located<String>] = []
        var commands: [GivenCommand] = []
        var references: [RuleReference] = []
        var kinds: [(name: String, on: String)] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: [UInt8]] = [:]
        // A repository's files are layers (``RuleLayers``); the operator's are read side by side.
        var layers = RuleLayers()
        var layerOfRule: [Int] = []
        var layerOfCommand: [Int] = []
        for (index, file) in files.enumerated() {
            sources[file.path] = file.bytes
            do {
                let root = try YAML.compose(bytes: file.bytes, file: file.path)
                let heads = ruleHeads(in: root)
                let fileNames = heads.map(\.name)
                names += fileNames
                layers.names[index] = fileNames
                let fileCommands = givenCommands(in: root)
                commands += fileCommands
                layerOfCommand += Array(repeating: index, count: fileCommands.count)
                references += ruleReferences(in: root, registry: registry)
                kinds += heads.compactMap { head in head.on.map { (head.name.value, $0) } }
                diagnostics += emptyRuleList(in: root)
                let decoder = YAMLDecoder()
                let source = try decoder.decode(RuleFileSource.self, from: root)
                layers.disabled[index] = source.disable
                if confinement == nil { diagnostics += RuleLayers.unavailable(in: source) }
                var decoded: [RuleFileSource.RuleSource] = []
                for node in source.rules {
                    do {
                        decoded.append(try decoder.decode(RuleFileSource.RuleSource.self, from: node))
                    } catch {
                        diagnostics += error.diagnostics
                    }
                }
                let compiled = compiler.compile(decoded, scope: source.scope, file: file.path)
                rules += compiled
                layerOfRule += Array(repeating: index, count: compiled.count)
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if let confinement {
            rules = zip(rules, layerOfRule).filter { !layers.isDropped($0.0.name, of: $0.1) }.map(\.0)
            commands = zip(commands, layerOfCommand).filter { !layers.isDropped($0.0.rule, of: $0.1) }.map(\.0)
            diagnostics += layers.duplicateNames() + layers.unknownDisabled()
            rules = rules.map { RepositoryRuleNaming.qualify($0, in: confinement.repository, registry: registry) }
        } else {
            diagnostics += duplicateNames(names)
        }
        linkCommands(&rules)
        diagnostics += compiler.diagnostics
        diagnostics += commandsGivenTwice(commands)
        diagnostics += unknownRules(references, among: names.map(\.value), kinds: kinds)
        var kept = diagnostics.contains { $0.severity == .error } ? [] : rules
        if let confinement, !compiler.refusals.isEmpty,
            diagnostics.allSatisfy({ $0.severity != .error || compiler.refusals.contains($0) })
        {
            // Only refusals: the rules they name wait, with what counts from them; the others act.
            let refused = Set(compiler.refusedRules.map { RepositoryRuleNaming.name($0, in: confinement.repository) })
            let waiting: [Diagnostic]
            (kept, waiting) = RepositoryRuleNaming.withoutRefused(rules, refused: refused, registry: registry)
            diagnostics += waiting
        }
        diagnostics.sort { $0.location < $1.location }
        return RuleSet(rules: kept, diagnostics: diagnostics, sources: sources)
    }

    /// Tells each command rule the command names of its kind, and the first rule with each name
    /// that it answers the misspellings closest to it (``CommandTrigger/mistakes(_:)``).
    private static func linkCommands(_ rules: inout [Rule]) {
        var names: [ItemKind: Set<String>] = [:]
        for rule in rules {
            if let name = rule.command?.pattern.name { names[rule.kind, default: []].insert(name) }
        }
        var claimed: Set<String> = []
        for index in rules.indices {
            guard let name = rules[index].command?.pattern.name else { continue }
            let kind = rules[index].kind
            rules[index].command?.knownNames = names[kind] ?? []
            rules[index].command?.answersMisspellings = claimed.insert("\(kind.rawValue) \(name)").inserted
        }
    }

    /// A rule's `name:` and `on:` as written in a composed file.
    struct RuleHead {
        var name: Located<String>
        /// The item kind as written, whether or not a plugin offers it.
        var on: String?
    }

    /// The `name:` and `on:` of each rule in a composed file, in one walk, read from the YAML
    /// itself rather than from the compiled rules, so a rule with mistakes of its own (or a file
    /// whose other keys are wrong) still has its name compared with the others'.
    private static func ruleHeads(in root: Node) -> [RuleHead] {
        guard case .sequence(let rules)? = value(of: "rules", in: root)?.content else { return [] }
        return rules.compactMap { rule in
            guard let name = value(of: "name", in: rule), let text = name.scalar, !name.isNull else { return nil }
            return RuleHead(name: Located(text, at: name.location), on: value(of: "on", in: rule)?.scalar)
        }
    }

    /// A file whose `rules:` is an empty list is warned of at the list: reading it changes
    /// nothing, which is seldom what its author meant (rules left out, or under another key).
    private static func emptyRuleList(in root: Node) -> [Diagnostic] {
        guard let list = value(of: "rules", in: root), case .sequence(let rules) = list.content, rules.isEmpty else {
            return []
        }
        return [.warning("this file holds no rules, so reading it changes nothing", at: list.location)]
    }

    /// The value of the first `key` of a mapping; `nil` for anything else.
    static func value(of key: String, in node: Node) -> Node? {
        guard case .mapping(let pairs) = node.content else { return nil }
        return pairs.first { $0.key.scalar == key }?.value
    }

    /// Rule names are the key of the bot's markers, so two rules may not share one: each repeat is
    /// an error at it, with a note where the name was first given, whatever else is wrong.
    static func duplicateNames(_ names: [Located<String>]) -> [Diagnostic] {
        var first: [String: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        for name in names {
            if let earlier = first[name.value] {
                diagnostics.append(
                    .error(
                        "duplicate rule name '\(name.value)'", at: name.location,
                        notes: [.note("first defined here", at: earlier)]))
            } else {
                first[name.value] = name.location
            }
        }
        return diagnostics
    }

    /// The rule files under `paths`: each file as given, each folder's `*.yml` and `*.yaml` (not
    /// recursing into folders), in path order so runs are deterministic.
    ///
    /// A folder without one is an error, not an empty set of rules: a scheduled job pointed at the
    /// wrong folder (or at one whose files were renamed) would otherwise succeed, doing nothing,
    /// every time it runs.
    public static func files(at paths: [String]) throws -> [(path: String, bytes: [UInt8])] {
        var found: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw RuleFileError.missing(path)
            }
            if isDirectory.boolValue {
                let names = try manager.contentsOfDirectory(atPath: path)
                    .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
                    .filter { !$0.hasPrefix(".") }
                    .sorted()
                guard !names.isEmpty else { throw RuleFileError.noRuleFiles(path) }
                found += names.map { (path as NSString).appendingPathComponent($0) }
            } else {
                found.append(path)
            }
        }
        return try found.map { path in
            guard let data = manager.contents(atPath: path) else { throw RuleFileError.unreadable(path) }
            return (path, [UInt8](data))
        }
    }
}

/// A rule path that cannot be read at all.
public enum RuleFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case missing(String)
    case unreadable(String)
    /// A folder that holds no `*.yml` or `*.yaml` file.
    case noRuleFiles(String)

    public var description: String {
        switch self {
        case .missing(let path): return "no such file or folder: \(path)"
        case .unreadable(let path): return "cannot read \(path)"
        case .noRuleFiles(let path):
            return "\(path.hasSuffix("/") ? path : path + "/") holds no rule files (*.yml, *.yaml)"
        }
    }
}
