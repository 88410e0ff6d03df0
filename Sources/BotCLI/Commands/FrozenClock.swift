import Foundation

/// The instant `--now` freezes the clock at, with the text it was written as, which the warning
/// of a run writing to a live server at that instant repeats.
struct FrozenClock: Sendable {
    var date: Date
    var written: String
}
