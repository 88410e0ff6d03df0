extension Duration {
    /// The duration in seconds, as a floating-point number: what rates, dates and reports count in.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
