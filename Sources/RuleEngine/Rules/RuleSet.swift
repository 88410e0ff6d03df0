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

    /// Loads and checks rule files given as (path, bytes), in the order given.
    ///
    /// - Parameters:
    ///   - scopeOverride: a scope that replaces every file's and rule's own (`--scope`).
    ///   - defaultSchedule: the schedule of every rule that writes none (`gitbay-bot.yml`'s `schedule:`).
    public static func load(
        files: [(path: String, bytes: [UInt8])], registry: PluginRegistry, scopeOverride: RuleScope? = nil,
        defaultSchedule: Schedule? = nil
    ) -> RuleSet {
        var compiler = RuleCompiler(
            registry: registry, scopeOverride: scopeOverride, defaultSchedule: defaultSchedule)
        var rules: [Rule] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: [UInt8]] = [:]
        for file in files {
            sources[file.path] = file.bytes
            do {
                let decoder = YAMLDecoder()
                let source = try decoder.decode(RuleFileSource.self, from: file.bytes, file: file.path)
                var decoded: [RuleFileSource.RuleSource] = []
                for node in source.rules {
                    do {
                        decoded.append(try decoder.decode(RuleFileSource.RuleSource.self, from: node))
                    } catch {
                        diagnostics += error.diagnostics
                    }
                }
                rules += compiler.compile(decoded, scope: source.scope, file: file.path)
            } catch {
                diagnostics += error.diagnostics
            }
        }
        diagnostics += compiler.diagnostics
        diagnostics += duplicateNames(rules)
        diagnostics.sort { $0.location < $1.location }
        return RuleSet(
            rules: diagnostics.contains { $0.severity == .error } ? [] : rules, diagnostics: diagnostics,
            sources: sources)
    }

    /// Rule names are the key of the bot's markers, so two rules may not share one.
    private static func duplicateNames(_ rules: [Rule]) -> [Diagnostic] {
        var first: [String: Rule] = [:]
        var diagnostics: [Diagnostic] = []
        for rule in rules {
            if let earlier = first[rule.name] {
                diagnostics.append(
                    .error(
                        "duplicate rule name '\(rule.name)'", at: rule.location,
                        notes: [.note("first defined here", at: earlier.location)]))
            } else {
                first[rule.name] = rule
            }
        }
        return diagnostics
    }

    /// The rule files under `paths`: each file as given, each folder's `*.yml` and `*.yaml` (not
    /// recursing into folders), in path order so runs are deterministic.
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

    public var description: String {
        switch self {
        case .missing(let path): return "no such file or folder: \(path)"
        case .unreadable(let path): return "cannot read \(path)"
        }
    }
}
