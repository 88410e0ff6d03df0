/// The bot's version, sent in every request's `User-Agent` and printed by `gitbay-bot --version`.
public enum BotVersion {
    public static let current = "0.1.0"
}
