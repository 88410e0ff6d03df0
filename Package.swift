// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gitbay-bot",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gitbay-bot", targets: ["gitbay-bot"]),
        .library(name: "GitbayKit", targets: ["GitbayKit"]),
        .library(name: "GitbayClient", targets: ["GitbayClient"]),
    ],
    targets: [
        // The shared model library: Foundation only, usable unchanged by the iOS client.
        .target(name: "GitbayKit"),

        // libcurl, the Linux HTTP transport (URLSession ignores whole-request deadlines there).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // The one clock protocol (monotonic readings, absolute deadlines) of the client and the watcher.
        .target(name: "Timekeeping"),
        .target(
            name: "GitbayClient",
            dependencies: [
                "GitbayKit", "Timekeeping",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ]
        ),

        // Rules: the condition language, the plugin protocol, planning and evaluation.
        .target(name: "RuleEngine", dependencies: ["GitbayKit", "YAML", "Suggestions", "CommentCommands"]),
        // The HTTP client as the engine's reader and writer: the one place the two meet.
        .target(name: "GitbayPorts", dependencies: ["GitbayClient", "GitbayKit", "RuleEngine"]),

        // The built-in bot plugins: ordinary libraries (not SwiftPM package plugins) under Plugins/.
        // What several plugins share (the label and marked-comment actions of issues and merge requests,
        // and the fields that tell people from automation).
        .target(name: "SharedPluginActions", dependencies: ["RuleEngine", "GitbayKit"], path: "Plugins/Shared"),
        .target(
            name: "IssuesPlugin", dependencies: ["RuleEngine", "GitbayKit", "SharedPluginActions"],
            path: "Plugins/Issues"),
        .target(
            name: "MergeRequestsPlugin", dependencies: ["RuleEngine", "GitbayKit", "SharedPluginActions"],
            path: "Plugins/MergeRequests"),
        .target(
            name: "BuildsPlugin", dependencies: ["RuleEngine", "GitbayKit", "MergeRequestsPlugin"],
            path: "Plugins/Builds"),
        .target(name: "MilestonesPlugin", dependencies: ["RuleEngine", "GitbayKit"], path: "Plugins/Milestones"),
        // The one list of built-in plugins, for the command line, the benchmarks, the docs and the tests.
        .target(
            name: "BuiltinPlugins",
            dependencies: ["RuleEngine", "IssuesPlugin", "MergeRequestsPlugin", "BuildsPlugin", "MilestonesPlugin"]),

        // The table-driven command-line parser: declarations, parsing, help, errors, completion scripts.
        .target(name: "ArgumentParsing", dependencies: ["Suggestions"]),

        // "Did you mean": one edit-distance matcher for YAML keys, condition fields and options.
        .target(name: "Suggestions"),

        // Commands people give in comments (`/label bug`): rule patterns, finding them outside code
        // and quotations, and fitting their arguments. Pure.
        .target(name: "CommentCommands"),

        // libyaml from the system (no nesting limit in 0.2.5: the YAML module enforces its own).
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The YAML layer of the rule files: events -> Node with source locations -> strict Decoder.
        .target(name: "YAML", dependencies: ["CLibYAML", "Suggestions"]),

        // The command line: the command table, the commands, renderers and exit codes.
        .target(
            name: "BotCLI",
            dependencies: [
                "ArgumentParsing", "RuleEngine", "YAML", "Suggestions", "GitbayKit", "GitbayClient", "GitbayPorts",
                "BuiltinPlugins",
                "MergeRequestsPlugin", "StateDatabase", "CSignals", "HTTPServer", "Webhooks", "Watch", "Timekeeping",
            ]
        ),
        // What `watch` runs on besides its loop: its clock and state machine, the write queue, the
        // webhook inbox and endpoint, and the service side (telemetry, /metrics, /healthz, the status
        // page, systemd's notifications and watchdog). No command and no session: BotCLI drives it.
        .target(
            name: "Watch",
            dependencies: [
                "ArgumentParsing", "GitbayKit", "GitbayClient", "RuleEngine", "HTTPServer", "Webhooks", "Timekeeping",
            ]
        ),
        .executableTarget(name: "gitbay-bot", dependencies: ["ArgumentParsing", "BotCLI", "BuiltinPlugins"]),

        // The signal handlers of the entry point, in C: `struct sigaction` differs between glibc and
        // Darwin, and a handler may only make async-signal-safe calls.
        .target(name: "CSignals"),

        // Close-on-exec descriptor calls in C (`accept4`, `pipe2`, spawn actions): glibc declares them only
        // under _GNU_SOURCE, which Swift's Glibc module lacks; POSIX fallbacks elsewhere.
        .target(name: "CPOSIXShims"),

        // The small HTTP/1.1 server of `watch --listen` (metrics, health, status), on threads of its own.
        .target(name: "HTTPServer", dependencies: ["CPOSIXShims"]),

        // SHA-256, HMAC-SHA256 and a constant-time comparison in pure Swift: the toolchain has no crypto
        // library here, and a webhook's signature is an HMAC-SHA256.
        // libcrypto's SHA-256, HMAC and constant-time comparison for webhook signatures (CommonCrypto on
        // Darwin): audited code for secrets, from a library libcurl already loads.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "MessageAuthentication",
            dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux]))]
        ),
        // The receiving end of gitbay's webhooks: a pure judgement of one request (signature, size, shape).
        .target(name: "Webhooks", dependencies: ["GitbayKit", "HTTPServer", "MessageAuthentication"]),

        // SQLite from the system, for the bot's state database.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The bot's state (runs, the journal) in one SQLite file per server and account: all SQL lives here.
        .target(name: "StateDatabase", dependencies: ["CSQLite", "GitbayKit", "RuleEngine"]),

        // Benchmarks: `swift run -c release gitbay-bench <subcommand>`.
        .executableTarget(
            name: "gitbay-bench",
            dependencies: [
                "GitbayClient", "GitbayPorts", "GitbayKit", "GitbayTestSupport", "RuleEngine", "BuiltinPlugins",
                "IssuesPlugin",
                "MilestonesPlugin",
                "MergeRequestsPlugin", "BuildsPlugin", "StateDatabase",
                "YAML", "BotCLI", "ArgumentParsing", "Watch",
            ],
            path: "Benchmarks/gitbay-bench"),

        // Test support: the simulator launcher and in-memory doubles shared by the suites.
        .target(
            name: "GitbayTestSupport",
            dependencies: ["GitbayKit", "GitbayClient", "CPOSIXShims", "Timekeeping"],
            path: "Tests/GitbayTestSupport"
        ),
        .testTarget(name: "GitbayTestSupportTests", dependencies: ["GitbayTestSupport", "GitbayKit", "GitbayClient"]),
        .testTarget(name: "GitbayKitTests", dependencies: ["GitbayKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GitbayClientTests", dependencies: ["GitbayClient", "GitbayTestSupport", "Timekeeping"]),
        // The engine's values alone, no plugin: conditions, schedules, the sweep, slots, suggestions.
        .testTarget(name: "RuleEngineTests", dependencies: ["RuleEngine"]),
        .testTarget(
            name: "BuiltinPluginsTests",
            dependencies: [
                "IssuesPlugin", "MergeRequestsPlugin", "BuildsPlugin", "MilestonesPlugin", "BuiltinPlugins",
                "RuleEngine", "GitbayKit", "YAML", "CommentCommands",
                "GitbayTestSupport",
            ]
        ),
        .testTarget(
            name: "ArgumentParsingTests", dependencies: ["ArgumentParsing", "GitbayTestSupport"],
            resources: [.copy("Golden")]),
        .testTarget(name: "YAMLTests", dependencies: ["YAML", "GitbayTestSupport"]),
        // The engine reading, judging and applying with the built-in plugins, on the simulator.
        .testTarget(
            name: "EngineWithPluginsTests",
            dependencies: [
                "RuleEngine", "GitbayKit", "GitbayClient", "GitbayPorts", "GitbayTestSupport", "IssuesPlugin",
                "MergeRequestsPlugin",
                "BuildsPlugin", "BuiltinPlugins",
            ]
        ),
        .testTarget(
            name: "BotCLITests",
            dependencies: [
                "BotCLI", "ArgumentParsing", "RuleEngine", "YAML", "GitbayKit", "GitbayClient", "GitbayPorts",
                "GitbayTestSupport",
                "StateDatabase", "IssuesPlugin", "MergeRequestsPlugin", "BuildsPlugin", "MessageAuthentication",
                "Watch", "HTTPServer", "Webhooks", "Timekeeping",
            ],
            resources: [.copy("Corpus"), .copy("Fixtures")]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "GitbayTestSupport"]),
        .testTarget(name: "MessageAuthenticationTests", dependencies: ["MessageAuthentication"]),
        .testTarget(name: "CommentCommandsTests", dependencies: ["CommentCommands"]),
        .testTarget(
            name: "WebhooksTests",
            dependencies: ["Webhooks", "HTTPServer", "GitbayKit", "MessageAuthentication", "GitbayTestSupport"]),
        .testTarget(
            name: "StateDatabaseTests",
            dependencies: ["StateDatabase", "RuleEngine", "GitbayTestSupport"]
        ),
        .testTarget(
            name: "ForgeStateTests",
            dependencies: [
                "RuleEngine", "GitbayKit", "GitbayClient", "GitbayPorts", "GitbayTestSupport", "IssuesPlugin",
                "BuildsPlugin",
                "MergeRequestsPlugin",
                "BuiltinPlugins",
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
