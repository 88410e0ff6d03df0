import ArgumentParsing
import Foundation
import RuleEngine
import YAML

/// Finds, reads and checks `gitbay-bot.yml`, then resolves the settings every command uses.
///
/// The one piece of the configuration that does I/O; ``Settings/resolve(_:environment:file:fileDirectory:configurationPath:)``
/// stays pure so the precedence is tested without files.
enum ConfigurationLoader {
    /// The file looked up in the working directory when `--config` is not given.
    static let defaultName = "gitbay-bot.yml"

    /// The settings of a command line that gave `given`; a wrong configuration prints its
    /// diagnostics and stops.
    ///
    /// A missing default file is fine (not every user wants one); a missing `--config` file is a
    /// usage error (64), since the user asked for it; an invalid file is exit 78 like invalid
    /// rules, with everything in it that would stop the command (`given.use`) reported at once.
    ///
    /// `registry` names the actions `repository_rules.forbid` may list.
    static func settings(
        _ given: CommandLineSettings, environment: [String: String], console: any Console, registry: PluginRegistry,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(CommandFailure) -> Settings {
        let explicit = given.config
        let path = explicit ?? (workingDirectory as NSString).appendingPathComponent(defaultName)
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if explicit == nil && (!exists || isDirectory.boolValue) {
                return try Settings.resolve(given, environment: environment)
            }
            throw CommandFailure(
                exists ? "cannot read the configuration \(path)" : "no such configuration file: \(path)",
                code: .usage)
        }
        let shown = explicit ?? defaultName
        let bytes = [UInt8](data)
        let directory = (path as NSString).deletingLastPathComponent
        var file = ConfigurationFile()
        var problems: [Diagnostic]
        do {
            (file, problems) = try read(
                bytes, file: shown, allowingPlainHTTP: given.allowsPlainHTTP, knownActions: registry.actionNames)
        } catch {
            problems = error.diagnostics
        }
        if given.use.contains(.readsRules), given.rules.isEmpty {
            problems += ruleProblems(file.rules, directory: directory, command: given.command)
        }
        guard problems.isEmpty else {
            // The warnings too: every word about the file in one run.
            let error = YAMLError((problems + file.warnings).sorted { $0.location < $1.location })
            console.write(error.rendered(sources: [shown: bytes]) + "\n", to: .error)
            let count = error.diagnostics.filter { $0.severity == .error }.count
            throw CommandFailure(
                "the configuration \(shown) has \(count) error\(count == 1 ? "" : "s"); nothing was read or done",
                code: .invalidRules)
        }
        var settings = try Settings.resolve(
            given, environment: environment, file: file, fileDirectory: directory, configurationPath: path)
        settings.configurationWarnings = file.warnings
        settings.configurationSources = [shown: bytes]
        return settings
    }

    /// Decodes and checks a configuration's bytes; an empty file (or only comments) is an empty configuration.
    ///
    /// - Parameters:
    ///   - allowingPlainHTTP: see ``ConfigurationFile/problems(allowingPlainHTTP:)``.
    ///   - registry: names the actions `repository_rules.forbid` may list.
    static func decode(
        _ bytes: [UInt8], file: String, allowingPlainHTTP: Bool = false, registry: PluginRegistry
    ) throws(YAMLError) -> ConfigurationFile {
        let (configuration, problems) = try read(
            bytes, file: file, allowingPlainHTTP: allowingPlainHTTP, knownActions: registry.actionNames)
        guard problems.isEmpty else { throw YAMLError(problems) }
        return configuration
    }

    /// A configuration's bytes decoded as far as they go, with every mistake in them (unknown
    /// keys, wrong types, values out of range) in source order.
    ///
    /// - Throws: ``YAML/YAMLError`` only for a file that is no YAML mapping at all.
    private static func read(
        _ bytes: [UInt8], file: String, allowingPlainHTTP: Bool, knownActions: Set<String>
    ) throws(YAMLError) -> (file: ConfigurationFile, problems: [Diagnostic]) {
        let node = try YAML.compose(bytes: bytes, file: file)
        if node.isNull {
            return (ConfigurationFile(), [])
        }
        let (configuration, unknownKeys) = try YAMLDecoder().decodeWithUnknownKeys(ConfigurationFile.self, from: node)
        let problems =
            unknownKeys + configuration.problems(allowingPlainHTTP: allowingPlainHTTP)
            + (configuration.repositoryRules?.problems(knownActions: knownActions) ?? [])
        return (configuration, problems.sorted { $0.location < $1.location })
    }

    /// Each entry of `rules:` that holds no rule files, at its place: a command that reads the
    /// rules would stop on it (exit 78) once the rules are read, so it is said with the file's
    /// other mistakes, where the path is written and as the folder it names from `directory`.
    ///
    /// An empty list is one too: like a folder without rule files, it would have a scheduled job
    /// succeed doing nothing.
    private static func ruleProblems(
        _ list: Located<[Located<String>]>?, directory: String, command: String
    ) -> [Diagnostic] {
        guard let list else { return [] }
        guard !list.value.isEmpty else {
            return [
                .error(
                    "'rules' lists no file or folder, so \(command) would read no rule and do nothing; "
                        + "list your rules, or leave 'rules' out to read rules/", at: list.location)
            ]
        }
        return list.value.filter { !$0.value.isEmpty }.compactMap { path in
            do {
                _ = try RuleSet.files(at: [Settings.path(path.value, writtenIn: directory)])
                return nil
            } catch {
                return .error(CommandFailure(rulePaths: error, command: command).message, at: path.location)
            }
        }
    }
}
