import ArgumentParsing

/// Options several commands share, declared once.
enum SharedOptions {
    static let format = OptionSpec.value(
        "format", valueName: "format", help: "How to print the result.", allowedValues: ["text", "json", "markdown"],
        defaultValue: "text")
    static let snapshot = OptionSpec.value(
        "snapshot", valueName: "file",
        help: "Evaluate offline against a forge-state file instead of a server (docs/forge-state.md).")
    static let now = OptionSpec.value(
        "now", valueName: "time",
        help: "Freeze the clock at this time (2026-11-29 or RFC 3339); with --snapshot it defaults to the file's.")
    static let url = OptionSpec.value(
        "url", valueName: "url", help: "The gitbay server (default: $GITBAY_URL, else https://gitbay.org).")
    static let tokenFile = OptionSpec.value(
        "token-file", valueName: "file", help: "Read the API token from this file (default: $GITBAY_TOKEN).")
    static let insecure = OptionSpec.flag(
        "allow-insecure-http", help: "Allow plain http:// to a host that is not this machine (the token goes in clear)."
    )
    static let scope = OptionSpec.value(
        "scope", valueName: "query", help: "Replace every rule's scope with these repo: and owner: terms.")
    static let maxActions = OptionSpec.value(
        "max-actions", valueName: "n", help: "The most commands one run may send.", defaultValue: "50")
    static let force = OptionSpec.flag(
        "force", help: "Let rules past the tripwire that holds back a rule acting on a large share of its items.")
    static let verbose = OptionSpec.flag("verbose", short: "v", help: "Print the reads made and the requests spent.")
    static let rateLimit = OptionSpec.value(
        "rate-limit", valueName: "n",
        help: "The server's API requests a minute per account ([limits] api_rate; writes get a tenth).",
        defaultValue: "120")
    static let rules = PositionalSpec(
        "rules", help: "Rule files or folders (default: rules/).", optional: true, repeating: true)

    /// The options of every command that evaluates rules.
    static let evaluation: [OptionSpec] = [
        format, snapshot, now, url, tokenFile, insecure, rateLimit, scope, maxActions, force, verbose,
    ]

    /// The options of every command that talks to a server.
    static let connection: [OptionSpec] = [url, tokenFile, insecure, rateLimit, verbose]
}
