import GitbayClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The executable's entry point; the command table arrives with the command-line module.
@main
enum GitbayBot {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(BotVersion.current)
            exit(0)
        }
        print("gitbay-bot \(BotVersion.current): the command line is not built yet.")
        exit(arguments.isEmpty || arguments == ["--help"] ? 0 : 64)
    }
}
