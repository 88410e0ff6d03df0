#!/usr/bin/env python3
"""A small HTTP/1.1 server for the transport tests and the transport benchmark.

Binds 127.0.0.1 on the port given as the first argument (0 picks a free one), prints the port
on the first line of stdout, then serves until killed or until its stdin reaches end of file,
so a crashed parent never leaves it behind. Python standard library only.

Endpoints (GET and POST):
  /echo[?status=N]          JSON: method, path, headers (lower-cased names), body, client port
  /status/N                 status N with a short text body
  /headers                  mixed-case response headers
  /gzip                     a gzip-encoded text body
  /stall                    never answers: holds the request until the client hangs up (60 s at most)
  /drip                     headers, then 10 bytes every 0.3 s for 6 s
  /reset                    resets the connection without answering
  /redirect?code=N&to=URL   redirect with status N to URL
  /loop                     redirects to itself forever
  /slow?delay=S             answers "ok" after S seconds
  /small                    answers "ok" at once
  /bytes?n=N                exactly N bytes of body, with a Content-Length
  /endless...[?stop_after=N]
                            a chunked JSON body that never ends (any path below it, so a client's
                            base URL can point there); stops when the client hangs up, or after
                            about N bytes, so a test of a broken cap fails without taking all memory
  /log                      JSON list of every request seen: host, path (with query), authorization
"""

import gzip
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOG = []
LOG_LOCK = threading.Lock()
GZIP_TEXT = ("hello gzip " * 200).encode()
ENDLESS_HEAD = b'{"protocol_version":1,"exit_code":0,"data":['
# The pause between /drip's chunks: the slow body is what the route serves, not a wait.
DRIP_PAUSE = 0.3
# The longest /stall holds a request whose client never hangs up.
STALL_LIMIT = 60
ENDLESS_ROWS = b'{"number":1,"title":"endless"},' * 2048


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without this, Nagle plus delayed ACK add 40 ms.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.handle_any(b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.handle_any(self.rfile.read(length))

    def stall(self):
        """Answers nothing until the client hangs up, at most STALL_LIMIT seconds.

        A client that gave up (a cancelled or timed-out transfer) ends the stall at once, so no
        handler thread outlives its test; the limit ends one whose client never hangs up.
        """
        deadline = time.monotonic() + STALL_LIMIT
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], left)
            try:
                if readable and not self.connection.recv(4096):
                    break
            except OSError:
                break
        self.close_connection = True

    def reply(self, status, body, headers=(), content_type="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self, body):
        url = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        with LOG_LOCK:
            LOG.append({
                "host": self.headers.get("Host", ""),
                "path": self.path,
                "authorization": self.headers.get("Authorization"),
            })
        route = url.path
        if route == "/echo":
            payload = {
                "method": self.command,
                "path": self.path,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "client_port": self.client_address[1],
            }
            self.reply(int(query.get("status", 200)), json.dumps(payload).encode(), content_type="application/json")
        elif route.startswith("/status/"):
            status = int(route.rsplit("/", 1)[1])
            self.reply(status, f"status {status}".encode())
        elif route == "/headers":
            self.reply(200, b"headers", headers=[("X-Custom-Header", "Mixed"), ("ETag", '"abc"')])
        elif route == "/gzip":
            self.reply(200, gzip.compress(GZIP_TEXT), headers=[("Content-Encoding", "gzip")])
        elif route == "/stall":
            self.stall()
        elif route == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "200")
            self.end_headers()
            for _ in range(20):
                self.wfile.write(b"0123456789")
                self.wfile.flush()
                time.sleep(DRIP_PAUSE)
        elif route == "/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif route == "/redirect":
            self.reply(int(query.get("code", 302)), b"", headers=[("Location", query.get("to", "/echo"))])
        elif route == "/loop":
            self.reply(302, b"", headers=[("Location", self.path)])
        elif route == "/slow":
            # The slow answer is what the route serves, not a wait for anything.
            time.sleep(float(query.get("delay", 1)))
            self.reply(200, b"ok")
        elif route == "/small":
            self.reply(200, b"ok")
        elif route == "/bytes":
            self.reply(200, b"x" * int(query.get("n", 0)))
        elif route.startswith("/endless"):
            self.endless(int(query.get("stop_after", 0)))
        elif route == "/log":
            with LOG_LOCK:
                entries = list(LOG)
            self.reply(200, json.dumps(entries).encode(), content_type="application/json")
        else:
            self.reply(404, b"no such endpoint")

    def endless(self, stop_after):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            self.write_chunk(ENDLESS_HEAD)
            sent = len(ENDLESS_HEAD)
            while not stop_after or sent < stop_after:
                self.write_chunk(ENDLESS_ROWS)
                sent += len(ENDLESS_ROWS)
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    # A parent that ignores SIGTERM passes that on through exec; restore the default.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
