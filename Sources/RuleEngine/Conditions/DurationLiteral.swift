/// Reads and writes the durations rules use: `60d`, `2w`, `36h`, `90m`, `30s`, or sums like `1d12h`.
public enum DurationLiteral {
    private static let units: [(suffix: Unicode.Scalar, seconds: Double)] = [
        ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
    ]

    /// The number of seconds `text` stands for, or `nil` when it is not a duration.
    public static func seconds(_ text: String) -> Double? {
        var total = 0.0
        var digits = ""
        var sawUnit = false
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
                continue
            }
            guard let unit = units.first(where: { $0.suffix == scalar }), let amount = Double(digits) else {
                return nil
            }
            total += amount * unit.seconds
            digits = ""
            sawUnit = true
        }
        return sawUnit && digits.isEmpty ? total : nil
    }

    /// A duration in its largest whole units, as people say it: `61d`, `3h 20m`, `45s`.
    public static func describe(seconds: Double) -> String {
        var remaining = Int(seconds.rounded(.down))
        guard remaining > 0 else { return "0s" }
        // Built in place: plans show a duration for every stale item, and at most two parts of
        // a few digits stay a small string that needs no allocation.
        var text = ""
        var parts = 0
        for unit in units where unit.suffix != "w" {
            let size = Int(unit.seconds)
            if remaining >= size {
                if parts > 0 { text += " " }
                text += String(remaining / size)
                text.unicodeScalars.append(unit.suffix)
                remaining %= size
                parts += 1
            }
            if parts == 2 { break }
        }
        return text
    }

    /// A duration in plain words, in its largest unit only: `181 days`, `1 day`, `5 hours`,
    /// `1 hour`, `12 minutes`, `less than a minute`.
    ///
    /// For text people read on an item (a comment, a status): `181d 3h` is rule syntax, and the
    /// hours beside months of quiet say nothing to the person reading the notice. Rounded down,
    /// so a notice never claims more time than has passed.
    public static func words(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        for (size, unit) in [(86_400, "day"), (3_600, "hour"), (60, "minute")] where whole >= size {
            let count = whole / size
            return count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
        }
        return "less than a minute"
    }
}
