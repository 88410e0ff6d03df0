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
        .target(
            name: "GitbayClient",
            dependencies: [
                "GitbayKit",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ]
        ),

        .executableTarget(name: "gitbay-bot", dependencies: ["GitbayClient"]),

        // Benchmarks: `swift run -c release gitbay-bench <subcommand>`.
        .executableTarget(name: "gitbay-bench", dependencies: ["GitbayClient"], path: "Benchmarks/gitbay-bench"),

        // Test support: the simulator launcher and in-memory doubles shared by the suites.
        .target(
            name: "GitbayTestSupport",
            dependencies: ["GitbayKit", "GitbayClient"],
            path: "Tests/GitbayTestSupport"
        ),
        .testTarget(name: "GitbayKitTests", dependencies: ["GitbayKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GitbayClientTests", dependencies: ["GitbayClient", "GitbayTestSupport"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
