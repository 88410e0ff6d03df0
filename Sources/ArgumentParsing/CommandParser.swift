import Suggestions

/// The command-line parser's entry point: argv and a command table in, a ``ParseOutcome`` out.
///
/// It is a pure function (no environment reads, no printing, no `exit`), so the tool's entry point owns all
/// I/O and tests run every path in-process.
public enum CommandParser {
    /// Parses `arguments` (argv without the program name) against the command tree rooted at `root`.
    ///
    /// - Parameters:
    ///   - width: the column to wrap help at; pass `COLUMNS` when set, else 80.
    ///   - shell: the user's shell path (`$SHELL`), used when `--generate-completion-script` names none.
    public static func parse(
        _ arguments: [String],
        root: CommandSpec,
        width: Int = 80,
        shell: String? = nil
    ) -> ParseOutcome {
        let tokens = ArgumentToken.split(arguments)
        let resolution = PathResolution(tokens: tokens, root: root)

        if resolution.helpRequested {
            if resolution.helpSubcommand, let stray = strayValue(in: tokens, resolution: resolution) {
                return failure(
                    unexpected([stray], subcommands: resolution.namedStack.innermost), stack: resolution.namedStack)
            }
            return .exit(.help(HelpGenerator(stack: resolution.namedStack, width: width).rendered()))
        }
        if let request = resolution.completionRequest {
            let requested = request ?? shell
            guard let name = requested, let target = CompletionShell(shellPath: name) else {
                return failure(.unsupportedShell(request), stack: resolution.stack)
            }
            return .exit(.completionScript(target.script(for: root)))
        }
        if let version = resolution.stack.version,
            tokens.contains(where: { $0.kind == .long(name: "version", attachedValue: nil) })
        {
            return .exit(.version(version))
        }

        var matcher = ArgumentMatcher(stack: resolution.stack)
        do throws(ParseProblem) {
            try matcher.match(tokens, skipping: resolution.consumed)
            let command = resolution.stack.innermost
            if !command.subcommands.isEmpty {
                if tokens.count == resolution.consumed.count {
                    return .exit(.help(HelpGenerator(stack: resolution.stack, width: width).rendered()))
                }
                if !matcher.positionals.isEmpty {
                    throw unexpected(matcher.positionals, subcommands: command)
                }
                throw ParseProblem.missingSubcommand
            }
            return .run(try matcher.invocation())
        } catch {
            return failure(error, stack: resolution.stack)
        }
    }

    /// Values where `command`'s subcommand goes: a mistyped subcommand when the first is close
    /// to one, as an unknown option is to a declared one.
    private static func unexpected(_ values: [String], subcommands command: CommandSpec) -> ParseProblem {
        if let word = values.first,
            let suggestion = Suggestion.closest(to: word, among: command.subcommands.map(\.name))
        {
            return .mistypedSubcommand(word, suggestion: suggestion)
        }
        return .unexpectedArguments(values)
    }

    /// The first value the `help` subcommand could not resolve to a subcommand, if any.
    private static func strayValue(in tokens: [ArgumentToken], resolution: PathResolution) -> String? {
        tokens.enumerated().first { !resolution.consumed.contains($0.offset) && $0.element.value != nil }?.element.value
    }

    /// Words a problem as a usage error about the command in `stack`.
    private static func failure(_ problem: ParseProblem, stack: CommandStack) -> ParseOutcome {
        .exit(
            .usageError(
                UsageError(message: problem.message, help: problem.help, usage: stack.synopsis, commandPath: stack.path)
            )
        )
    }
}
