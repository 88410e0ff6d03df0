/// The YAML 1.2 core schema's tag names and null spellings, shared by the composer and decoder.
enum CoreTag {
    /// `!!str`: the scalar is text whatever it looks like.
    static let string = "tag:yaml.org,2002:str"
    /// `!!null`.
    static let null = "tag:yaml.org,2002:null"
    /// `!!bool`.
    static let bool = "tag:yaml.org,2002:bool"
    /// `!!int`.
    static let int = "tag:yaml.org,2002:int"
    /// `!!float`.
    static let float = "tag:yaml.org,2002:float"
    /// `!!merge`, the explicit form of `<<`.
    static let merge = "tag:yaml.org,2002:merge"
    /// The plain spellings of null in the core schema; the empty string is an omitted value.
    static let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]
}
