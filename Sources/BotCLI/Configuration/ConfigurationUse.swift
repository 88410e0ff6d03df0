/// What a command does with its settings, which decides what in the configuration would stop it.
///
/// The configuration is checked for a command when it is read, so every mistake that would stop
/// the command later (a plain `http://` server once the client is built, a rules folder once the
/// rules are read) is reported with the file's others, at its line and column, exit 78. `check`
/// reads it as the commands that do both, so it refuses whatever they would.
struct ConfigurationUse: OptionSet, Sendable {
    let rawValue: Int

    /// It sends the token to the server (or checks as a command that does): plain `http://` to
    /// another machine is refused unless `--allow-insecure-http` is given.
    static let sendsToken = ConfigurationUse(rawValue: 1 << 0)
    /// It reads the rules: each path of `rules:` must hold rule files, when no path is given on
    /// the command line in their place.
    static let readsRules = ConfigurationUse(rawValue: 1 << 1)
}
