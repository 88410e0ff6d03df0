#if canImport(CCurl)
import CCurl
import Foundation

/// One libcurl easy handle and what it has received so far; lives on the ``CurlMultiLoop`` thread.
///
/// libcurl calls the write and header callbacks with the pointer given as `CURLOPT_WRITEDATA` and
/// `CURLOPT_HEADERDATA`. That pointer is this object, unretained: the loop keeps the transfer in
/// its table for as long as the easy handle is in the multi handle, which is the only time
/// libcurl can call back.
final class CurlTransfer {
    let easy: UnsafeMutableRawPointer
    let cancellation: CurlMultiLoop.CancellationFlag
    private let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body = Data()
    private var responseHeaders: [HTTPHeader] = []
    /// The request's cap on the body.
    private let maxResponseSize: ByteCount
    /// Set when the body would have passed the cap and the write callback stopped the transfer.
    private var passedCap = false

    /// Creates and configures the easy handle for one exchange that does not follow redirects.
    init(
        request: HTTPRequest, connectTimeout: Duration, cancellation: CurlMultiLoop.CancellationFlag,
        continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    ) throws(TransportError) {
        guard let easy = curl_easy_init() else { throw .other("curl_easy_init failed") }
        self.easy = easy
        self.cancellation = cancellation
        self.continuation = continuation
        maxResponseSize = request.maxResponseSize
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure(request, connectTimeout: connectTimeout)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Resumes the waiting task with the outcome libcurl reported for this transfer.
    func finish(_ code: CURLcode) {
        guard !passedCap else {
            finish(.failure(.responseTooLarge(maxResponseSize)))
            return
        }
        guard code == CURLE_OK else {
            let detail =
                errorBuffer.pointee == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errorBuffer)
            finish(.failure(TransportError(curlCode: code, detail: detail)))
            return
        }
        var status = 0
        ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        finish(.success(HTTPResponse(status: status, headers: responseHeaders, body: body)))
    }

    /// Resumes the waiting task; the loop calls this exactly once per transfer.
    func finish(_ result: Result<HTTPResponse, TransportError>) {
        continuation.resume(returning: result)
    }

    private func configure(_ request: HTTPRequest, connectTimeout: Duration) throws(TransportError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var codes: [CURLcode] = [
            ccurl_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString),
            ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout)),
            ccurl_easy_setopt_long(
                easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(connectTimeout, request.timeout))),
            ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            ccurl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, Self.writeCallback),
            ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
            ccurl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback),
            ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
        ]
        switch request.method {
        case .get:
            codes.append(ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case .post:
            let payload = request.body ?? Data()
            codes.append(ccurl_easy_setopt_long(easy, CURLOPT_POST, 1))
            // libcurl silently sends a request again when a reused connection turns out to have
            // died, even after the server ran it and dropped the reply. A write must never be sent
            // twice behind the client's back, so a POST always gets a connection of its own.
            codes.append(ccurl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
            codes.append(ccurl_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1))
            codes.append(ccurl_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count)))
            codes.append(
                payload.withUnsafeBytes { bytes in
                    // COPYPOSTFIELDS copies the bytes now, so the buffer need not outlive this call;
                    // an empty body still needs a valid pointer, or libcurl would read a C string.
                    ccurl_easy_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(Self.emptyBody.utf8Start))
                })
        }
        // "Expect:" with no value stops libcurl from waiting for a 100 Continue on large bodies.
        for line in request.headers.map(Self.headerLine) + ["Expect:"] {
            guard let appended = curl_slist_append(headerList, line) else { throw .other("curl_slist_append failed") }
            headerList = appended
        }
        codes.append(ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList))
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw .other(String(cString: curl_easy_strerror(failed)))
        }
    }

    /// Records one header line; a new status line (after a 1xx or a proxy's CONNECT) starts over.
    private func receiveHeaderLine(_ line: String) {
        if line.hasPrefix("HTTP/") {
            responseHeaders.removeAll()
            return
        }
        if line.first == " " || line.first == "\t", let last = responseHeaders.indices.last {
            responseHeaders[last].value += " " + line.trimmingCharacters(in: .whitespaces)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        responseHeaders.append(HTTPHeader(name, value))
    }

    /// The header as libcurl expects it; `Name;` is libcurl's spelling of a header with an empty value.
    private static func headerLine(_ header: HTTPHeader) -> String {
        header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
    }

    /// A duration in whole milliseconds, at least 1, since libcurl reads 0 as "no timeout".
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static let emptyBody: StaticString = ""

    /// Appends a piece of the body, or stops the transfer when it would pass the cap.
    ///
    /// Answering fewer bytes than given makes libcurl abort with `CURLE_WRITE_ERROR` and read no
    /// more, so the body never grows past ``maxResponseSize``, however much the server sends.
    private static let writeCallback: ccurl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard length <= transfer.maxResponseSize.bytes - transfer.body.count else {
            transfer.passedCap = true
            return 0
        }
        transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }

    private static let headerCallback: ccurl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        if !line.isEmpty {
            transfer.receiveHeaderLine(line)
        }
        return size * count
    }
}
#endif
