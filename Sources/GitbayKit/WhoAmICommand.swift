/// Reads the caller's identity: `whoami`.
///
/// The bot learns its own username to filter its writes out of feeds and to check it is not admin
/// by accident; the command takes no arguments at all.
public struct WhoAmICommand: GitbayCommand, Hashable {
    public typealias Response = Identity

    public static var effect: CommandEffect { .read }

    public init() {}

    public var argv: [String] { ["whoami"] }
}
