import Foundation
import HTTPServer

/// What `watch --listen` serves: `/metrics`, `/healthz` and the status page at `/`.
///
/// Each answer is rendered from a copy of the watcher's status, taken under a short lock; nothing
/// here reads the state database or the forge, so a scrape costs a copy and a render, and a client
/// cannot make a pass wait.
public struct StatusEndpoints: Sendable {
    public let telemetry: WatchTelemetry

    public init(telemetry: WatchTelemetry) {
        self.telemetry = telemetry
    }

    public func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        let status = telemetry.status
        let now = telemetry.now
        switch request.path {
        case "/metrics":
            return .text(
                MetricsExposition.render(status, now: now, residentBytes: ResidentMemory.bytes()),
                contentType: MetricsExposition.contentType)
        case "/healthz":
            let verdict = WatchHealth.verdict(status, now: now)
            return .text(verdict.line + "\n", status: verdict.healthy ? 200 : 503)
        case "/", "/index.html":
            var response = HTTPServer.Response.text(
                StatusPage.render(status, now: now), contentType: "text/html; charset=utf-8")
            response.headers.append(HTTPServer.Header("Content-Security-Policy", StatusPage.contentSecurityPolicy))
            return response
        default:
            return .text("not found: this server has /, /healthz and /metrics\n", status: 404)
        }
    }
}
