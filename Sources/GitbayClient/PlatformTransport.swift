/// Picks the ``HTTPTransport`` the bot uses on the platform it runs on.
public enum PlatformTransport {
    /// The transport for this platform: ``CurlTransport`` on Linux, ``URLSessionTransport`` elsewhere.
    ///
    /// On macOS URLSession is Apple's own network stack and always the right choice. On Linux it
    /// is FoundationNetworking, whose waiting costs real CPU and whose deadline must be emulated;
    /// `gitbay-bench transport` measured it (see the numbers below) and libcurl driven directly
    /// wins on CPU while waiting with the same or better wall time.
    public static func make() -> any HTTPTransport {
        #if canImport(CCurl)
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }
}
