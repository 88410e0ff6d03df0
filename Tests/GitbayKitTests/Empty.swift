/// A payload with no fields, for envelopes that carry only an error.
///
/// Lets a refusal fixture go through the same `Envelope<Payload>` round trip as every other one.
struct Empty: Codable, Sendable, Hashable {}
