import ArgumentParsing

extension Invocation {
    /// Whether the flag `spec` declares is on: looked up by its declaration, not a name typed again.
    func flag(_ spec: OptionSpec) -> Bool {
        flag(spec.name)
    }

    /// The value of the option `spec` declares (its default when not given).
    func value(_ spec: OptionSpec) -> String? {
        value(spec.name)
    }
}
