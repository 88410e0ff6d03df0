import Foundation

/// How many seeds the property tests try: the quick set that `Scripts/test.sh` runs by default,
/// or every seed (`Scripts/test.sh --deep`, `GITBAY_DEEP_TESTS=1`), which CI runs.
///
/// The seeds are most of the suite's time (WeeksPropertyTests alone was 38 of 290 CPU-seconds),
/// and one seed of each property already runs every step of it. The quick set keeps the seeds
/// that caught a regression once; the others look for new ones, where CI's deep run is the place.
public enum TestDepth {
    /// Whether this run tries every seed.
    public static var isDeep: Bool {
        ProcessInfo.processInfo.environment["GITBAY_DEEP_TESTS"] == "1"
    }

    /// `quick` by default, `deep` in a deep run.
    public static func seeds<Seed>(quick: [Seed], deep: [Seed]) -> [Seed] {
        isDeep ? deep : quick
    }
}
