/// Who may give a rule's command: the words `allowed:` takes.
public enum CommandPermission: Sendable, Hashable, CustomStringConvertible {
    /// The item's author.
    case author
    /// Accounts with write access to the item's repository.
    case writers
    /// One account, by name.
    case account(String)

    /// The words that are not account names.
    public static let words = ["author", "writers"]

    /// `author`, `writers`, or an account name with or without `@`; `nil` for anything else.
    public init?(word: String) {
        switch word {
        case "author": self = .author
        case "writers": self = .writers
        default:
            let name = word.hasPrefix("@") ? String(word.dropFirst()) : word
            guard CommandArgumentType.isAccountName(name) else { return nil }
            self = .account(name)
        }
    }

    public var description: String {
        switch self {
        case .author: "author"
        case .writers: "writers"
        case .account(let name): "@" + name
        }
    }
}
