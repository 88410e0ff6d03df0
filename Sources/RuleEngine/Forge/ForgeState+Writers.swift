extension ForgeState {
    /// The state with `accounts` as the writers of every repository whose writers were not read:
    /// offline (a forge-state file, a rule test) the configured list is all there is.
    public func writers(_ accounts: Set<String>, because reason: String) -> ForgeState {
        var state = self
        for index in state.repositories.indices where state.repositories[index].writers == nil {
            state.repositories[index].writers = CommandWriters(accounts: accounts, source: .configured(reason))
        }
        return state
    }
}
