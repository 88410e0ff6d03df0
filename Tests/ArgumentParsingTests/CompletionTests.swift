import ArgumentParsing
import Foundation
import Testing

/// Completion scripts: golden snapshots, coverage of the table, and checks by the real shells.
@Suite struct CompletionTests {
    /// The script the parser prints for `shell`.
    static func script(_ shell: String) -> String {
        guard
            case .exit(.completionScript(let script)) = CommandParser.parse(
                ["--generate-completion-script", shell], root: SampleTool.root)
        else {
            return ""
        }
        return script
    }

    /// A snapshot from `Golden/`.
    static func golden(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(arguments: [("bash", "forge.bash"), ("zsh", "forge.zsh"), ("fish", "forge.fish")])
    func scriptMatchesItsSnapshot(shell: String, file: String) throws {
        #expect(Self.script(shell) == (try Self.golden(file)))
    }

    @Test func attachedAndSeparateShellSpellingsAgree() {
        let attached = CommandParser.parse(["--generate-completion-script=zsh"], root: SampleTool.root)
        #expect(attached == .exit(.completionScript(Self.script("zsh"))))
    }

    @Test func missingShellFallsBackToTheUsersShell() {
        let outcome = CommandParser.parse(
            ["--generate-completion-script"], root: SampleTool.root, shell: "/usr/bin/fish")
        #expect(outcome == .exit(.completionScript(Self.script("fish"))))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptMentionsEveryCommandOptionAndValue(shell: String) {
        let script = Self.script(shell)
        var commands = [SampleTool.root]
        while let command = commands.popLast() {
            commands += command.subcommands
            #expect(script.contains(command.name), "\(shell) script lacks \(command.name)")
            for option in command.options where !option.isHidden {
                let spelling = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
                #expect(script.contains(spelling), "\(shell) script lacks --\(option.name)")
                for value in option.allowedValues {
                    #expect(script.contains(value), "\(shell) script lacks \(value)")
                }
            }
            for option in command.options where option.isHidden {
                #expect(!script.contains(option.name), "\(shell) script offers hidden --\(option.name)")
            }
        }
    }

    @Test func bashSyntaxIsValid() async throws {
        let bash = try #require(ShellRunner("bash"))
        let result = try await bash.run(script: Self.script("bash"), arguments: ["-n", "{}"])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        .enabled(
            if: ShellRunner.isInstalled("zsh"),
            "zsh is not installed (apt-get install zsh); the zsh script is not checked"))
    func zshSyntaxIsValid() async throws {
        let zsh = try #require(ShellRunner("zsh"))
        let result = try await zsh.run(script: Self.script("zsh"), arguments: ["-n", "{}"])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        .enabled(
            if: ShellRunner.isInstalled("fish"),
            "fish is not installed (apt-get install fish); the fish script is not checked"))
    func fishSyntaxIsValid() async throws {
        let fish = try #require(ShellRunner("fish"))
        let result = try await fish.run(script: Self.script("fish"), arguments: ["-n", "{}"])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func bashCompletesSubcommandsOptionsAndValues() async throws {
        let bash = try #require(ShellRunner("bash"))
        let driver = """
            source "$1"
            try() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _forge; echo "${COMPREPLY[*]}"; }
            try forge re
            try forge report b
            try forge report builds --status p
            try forge --color a
            try forge s --no
            try forge label --mode ""
            """
        let script = Self.script("bash")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("forge-\(UUID().uuidString).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await bash.run(script: driver, arguments: ["{}", file.path])
        #expect(
            result.output == """
                report
                builds
                pending passed
                auto always
                --no-prune
                add remove set

                """)
    }

    @Test(
        .enabled(
            if: ShellRunner.isInstalled("fish"),
            "fish is not installed (apt-get install fish); the fish script is not checked"))
    func fishCompletesSubcommandsOptionsAndValues() async throws {
        let fish = try #require(ShellRunner("fish"))
        let driver = """
            source {}
            complete -C "forge report builds --status p"
            complete -C "forge report "
            complete -C "forge s --p"
            """
        let result = try await fish.run(script: Self.script("fish"), arguments: ["-c", driver])
        #expect(
            result.output == """
                passed\tOnly builds in this status.
                pending\tOnly builds in this status.
                builds\tList builds by status.
                stale\tList issues nobody has touched for a while.
                --prune\tRemove items deleted upstream.

                """)
    }
}
