/// The arguments of one command, by parameter, as its pattern took them.
public struct CommandArguments: Sendable, Hashable {
    /// Each parameter's values: one for a plain parameter, any number for a repeated one, none for
    /// an optional one left out.
    public let values: [String: [String]]

    public init(_ values: [String: [String]]) {
        self.values = values
    }

    /// The values of `name`, joined by spaces; empty when none was given.
    public subscript(name: String) -> String {
        values[name]?.joined(separator: " ") ?? ""
    }
}

/// Why a command's arguments do not fit its pattern, said to the person who wrote it.
public struct CommandArgumentProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension CommandPattern {
    /// The arguments of `command` as this pattern takes them, or why they do not fit.
    ///
    /// Too many, one missing, one of the wrong type: a command that does not fit does nothing but
    /// say why.
    public func arguments(of command: CommentCommand) -> Result<CommandArguments, CommandArgumentProblem> {
        let usage = "usage: \(self.usage)"
        if let problem = command.malformed { return .failure(CommandArgumentProblem("\(problem); \(usage)")) }
        var left = command.arguments[...]
        var values: [String: [String]] = [:]
        for parameter in parameters {
            let taken: ArraySlice<String>
            if parameter.isRepeated {
                taken = left
                left = []
            } else {
                taken = left.prefix(1)
                left = left.dropFirst()
            }
            if taken.isEmpty && !parameter.isOptional {
                return .failure(CommandArgumentProblem("<\(parameter.name)> is missing; \(usage)"))
            }
            var accepted: [String] = []
            for argument in taken {
                switch parameter.type.accept(argument) {
                case .success(let value): accepted.append(value)
                case .failure(let why):
                    return .failure(CommandArgumentProblem("\(parameter.name): \(why.description); \(usage)"))
                }
            }
            values[parameter.name] = accepted
        }
        guard left.isEmpty else {
            let extra = left.joined(separator: " ")
            return .failure(CommandArgumentProblem("/\(name) takes no more than that, not \(extra); \(usage)"))
        }
        return .success(CommandArguments(values))
    }
}
