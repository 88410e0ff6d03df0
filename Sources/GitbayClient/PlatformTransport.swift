/// Picks the ``HTTPTransport`` the bot uses on the platform it runs on.
public enum PlatformTransport {
    /// The transport for this platform: ``CurlTransport`` on Linux, ``URLSessionTransport`` elsewhere.
    ///
    /// On macOS URLSession is Apple's own network stack and always the right choice. On Linux it
    /// is FoundationNetworking, whose deadline must be emulated and whose waiting costs real CPU.
    /// `swift run -c release gitbay-bench transport` on the two-core Linux runner (Swift 6.3.1,
    /// libcurl 7.88.1, local server):
    ///
    /// | scenario                            | curl wall / CPU     | URLSession wall / CPU |
    /// |-------------------------------------|---------------------|-----------------------|
    /// | 3 sequential replies delayed 1.5 s  | 4.50 s / 0.00 s     | 4.51 s / 0.00 s       |
    /// | 5 concurrent replies delayed 1.5 s  | 1.51 s / 0.00 s     | 1.51 s / 1.39 s       |
    /// | 300 sequential small GETs           | 0.14 s (2077 req/s) | 0.22 s (1383 req/s)   |
    ///
    /// libcurl driven directly never costs more wall time, burns no CPU while requests wait in
    /// parallel (URLSession spins about one core) and moves small reads about 1.5 times faster.
    public static func make() -> any HTTPTransport {
        #if canImport(CCurl)
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }
}
