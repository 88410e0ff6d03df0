import BotCLI
import Foundation

/// The executable's entry point: one call into the command line, then exit with its code.
@main
enum GitbayBot {
    static func main() async {
        let code = await BotCLI.run(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            console: StandardConsole())
        exit(code)
    }
}
