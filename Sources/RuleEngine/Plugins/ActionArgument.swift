/// An action's argument with templates expanded and `@me` resolved, ready to render a command.
public enum ActionArgument: Sendable, Hashable, Codable {
    case none
    case names([String])
    case text(String)
    /// A milestone title, or `nil` to clear it.
    case milestone(String?)
    /// Named values with templates expanded; a parameter the rule left out is absent.
    case parameters([String: String])

    /// The value of one named parameter, `nil` when the rule left it out.
    public func parameter(_ name: String) -> String? {
        if case .parameters(let values) = self { return values[name] }
        return nil
    }

    /// The names, for actions that take labels or users.
    public var names: [String] {
        if case .names(let names) = self { return names }
        return []
    }
}

extension ActionArgument {
    private enum Key: String, CodingKey {
        case names
        case text
        case milestone
        case parameters
    }

    /// `"none"`, `{"names": [...]}`, `{"text": "..."}`, `{"milestone": "title" | null}` or
    /// `{"parameters": {"name": "value", ...}}`.
    public init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self), word == "none" {
            self = .none
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        if let names = try container.decodeIfPresent([String].self, forKey: .names) {
            self = .names(names)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .text) {
            self = .text(text)
        } else if container.contains(.milestone) {
            self = .milestone(try container.decodeIfPresent(String.self, forKey: .milestone))
        } else if let values = try container.decodeIfPresent([String: String].self, forKey: .parameters) {
            self = .parameters(values)
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected none, names, text, milestone or parameters"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .none:
            var container = encoder.singleValueContainer()
            try container.encode("none")
        case .names(let names):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(names, forKey: .names)
        case .text(let text):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(text, forKey: .text)
        case .milestone(let title):
            var container = encoder.container(keyedBy: Key.self)
            if let title {
                try container.encode(title, forKey: .milestone)
            } else {
                try container.encodeNil(forKey: .milestone)
            }
        case .parameters(let values):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(values, forKey: .parameters)
        }
    }
}
