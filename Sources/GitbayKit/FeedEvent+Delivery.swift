extension FeedEvent {
    /// The feed row of the event `delivery` carries, without the feed's id (0), which a delivery
    /// does not carry.
    ///
    /// Read from the delivery's parsed fields by the rules a row's `data` is read by (the item's
    /// `number` when it is a whole number, a label event's `labels` when each is a string;
    /// anything else names nothing), never by writing the row out and reading it back: the time
    /// keeps every digit it came with, and a delivery the intake took cannot be lost on the way
    /// (written out, a time whose UTC year has five digits could not be read back).
    public init(delivery: GitbayDelivery) {
        var data: [String: JSONValue] = [:]
        if case .object(let fields) = delivery.data { data = fields }
        self.init(
            id: 0, repo: delivery.repo, actor: delivery.actor, kind: delivery.event,
            number: Self.wholeNumber(data["number"]), createdAt: delivery.createdAt,
            labels: Self.strings(data["labels"]))
    }

    /// `value` as an `Int`, when it is a number with nothing after the point that fits one.
    private static func wholeNumber(_ value: JSONValue?) -> Int? {
        guard case .number(let number) = value else { return nil }
        return Int(exactly: number)
    }

    /// `value` as a list of strings, when it is an array of nothing else.
    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let values) = value else { return nil }
        var strings: [String] = []
        for value in values {
            guard case .string(let string) = value else { return nil }
            strings.append(string)
        }
        return strings
    }
}
