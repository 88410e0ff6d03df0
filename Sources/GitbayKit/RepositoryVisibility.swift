/// A repository's visibility: `public` or `private`.
///
/// Open-ended so a visibility a newer server adds (such as an internal one) is kept.
public struct RepositoryVisibility: OpenEnumeration {
    public static let `public` = RepositoryVisibility(rawValue: "public")
    public static let `private` = RepositoryVisibility(rawValue: "private")

    public static var knownValues: [RepositoryVisibility] { [.public, .private] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
