import GitbayClient
import RuleEngine

/// The client's error as the applier weighs it: the kinds it acts on, and everything else.
extension GitbayError: ForgeFailureConvertible {
    public var forgeFailure: ForgeFailure {
        let engineKind: ForgeFailure.Kind =
            switch kind {
            case .unauthorized: .tokenRejected
            case .rateLimited: .rateLimited
            case .busy: .busy
            case .denied: .denied
            case .failure, .usage, .notFound: .refused
            case _ where isUnreachable: .unreachable
            case .cancelled where !mayHaveApplied: .stopped
            default: .other
            }
        return ForgeFailure(
            kind: engineKind, message: message, description: description, mayHaveApplied: mayHaveApplied)
    }
}
