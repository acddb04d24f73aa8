#!/usr/bin/env python3
"""HTTP server for the FeedFetcher tests.

Binds 127.0.0.1 on a free port, prints that port on the first line of stdout,
and serves until stdin is closed or the process is killed. Standard library only.

Routes (query strings configure them):
  /feed                     a small feed with ETag and Last-Modified; answers 304 to
                            a matching If-None-Match or If-Modified-Since
  /headers                  echoes the request line and headers as the body
  /connection               the client's port: which TCP connection the request came on
  /gzip, /deflate           the feed body, content-coded
  /redirect/CODE?to=LOC     answers CODE with Location LOC verbatim
  /chain/N                  N more redirects (302 to /chain/N-1), /chain/0 is the feed
  /loop/a, /loop/b          redirect to each other forever
  /slash/start              302 to the relative "feed/"; /slash/feed 301 to "feed/";
                            /slash/feed/ is the feed
  /sleep?seconds=S          waits S seconds before answering
  /trickle?chunks=N&delay=D N chunks of 1 KiB, D seconds apart, with Content-Length
  /gate?id=I                1 KiB of "a", then waits (10 s at most) for /open?id=I and
                            sends 1 KiB of "b" when it came, of "x" when it did not
  /open?id=I                opens the gate I
  /endless?id=I             a body without end (no Content-Length), ~30 MB/s
  /bytes?size=N&id=I        N bytes of the pattern 0, 1, ... 255, 0, 1, ... with
                            Content-Length
  /closed?id=I              "yes" once the client of /endless or /bytes with that id
                            went away before the end, else "no"
  /truncated                announces 1000 bytes, sends 100, closes the connection
  /status/CODE              answers CODE with its standard reason phrase
  /html                     an HTML page
  /auth                     needs Basic user "alice" password "s3cret"
  absolute-form requests    (a client speaking to us as its proxy) answer
                            "proxied <target>"
  CONNECT                   (a client tunnelling https through us) 403
"""

import base64
import gzip
import http.server
import sys
import threading
import time
import urllib.parse
import zlib

FEED = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<rss version="2.0"><channel><title>Test feed</title>'
    + b"".join(
        b"<item><title>Episode %d</title><guid>ep-%d</guid></item>" % (i, i)
        for i in range(200)
    )
    + b"</channel></rss>\n"
)
ETAG = '"v1-feed"'
LAST_MODIFIED = "Tue, 01 Apr 2025 10:00:00 GMT"
CLOSED = set()
CLOSED_LOCK = threading.Lock()
GATES = {}
GATES_LOCK = threading.Lock()


def gate(ident):
    with GATES_LOCK:
        return GATES.setdefault(ident, threading.Event())
HTML = b"<!DOCTYPE html><html><head><title>Not a feed</title></head><body>Hi</body></html>"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FetcherTestServer"

    def log_message(self, format, *args):
        pass

    def send_body(self, status, body, content_type="application/rss+xml", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, status, location):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def client_left(self, ident):
        with CLOSED_LOCK:
            CLOSED.add(ident)
        self.close_connection = True

    def do_CONNECT(self):
        self.send_body(403, b"no tunnels here", "text/plain")

    def do_GET(self):
        if self.path.startswith("http://") or self.path.startswith("https://"):
            self.send_body(200, b"proxied " + self.path.encode(), "text/plain")
            return
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        path = url.path
        parts = path.strip("/").split("/")

        if path == "/feed":
            conditional = self.headers.get("If-None-Match") == ETAG or (
                self.headers.get("If-None-Match") is None
                and self.headers.get("If-Modified-Since") == LAST_MODIFIED
            )
            validators = [("ETag", ETAG), ("Last-Modified", LAST_MODIFIED)]
            if conditional:
                self.send_response(304)
                for name, value in validators:
                    self.send_header(name, value)
                self.end_headers()
            else:
                self.send_body(200, FEED, headers=validators)
        elif path == "/connection":
            # The client's port names the TCP connection the request came on.
            self.send_body(200, str(self.client_address[1]).encode(), "text/plain")
        elif path == "/headers":
            lines = [self.requestline] + [f"{k}: {v}" for k, v in self.headers.items()]
            self.send_body(200, "\n".join(lines).encode(), "text/plain")
        elif path == "/gzip":
            self.send_body(200, gzip.compress(FEED), headers=[("Content-Encoding", "gzip")])
        elif path == "/deflate":
            self.send_body(200, zlib.compress(FEED), headers=[("Content-Encoding", "deflate")])
        elif parts[0] == "redirect" and len(parts) == 2:
            self.redirect(int(parts[1]), query.get("to", "/feed"))
        elif parts[0] == "chain" and len(parts) == 2:
            remaining = int(parts[1])
            if remaining == 0:
                self.send_body(200, FEED)
            else:
                self.redirect(302, f"/chain/{remaining - 1}")
        elif path == "/loop/a":
            self.redirect(302, "/loop/b")
        elif path == "/loop/b":
            self.redirect(302, "/loop/a")
        elif path == "/slash/start":
            self.redirect(302, "feed/")
        elif path == "/slash/feed":
            self.redirect(301, "feed/")
        elif path == "/slash/feed/":
            self.send_body(200, FEED)
        elif path == "/sleep":
            time.sleep(float(query.get("seconds", "5")))
            self.send_body(200, FEED)
        elif path == "/trickle":
            chunks = int(query.get("chunks", "5"))
            delay = float(query.get("delay", "0.2"))
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(chunks * 1024))
            self.end_headers()
            for i in range(chunks):
                self.wfile.write(bytes([ord("a") + i % 26]) * 1024)
                self.wfile.flush()
                if i + 1 < chunks:
                    time.sleep(delay)
        elif path == "/gate":
            self.send_response(200)
            self.send_header("Content-Length", "2048")
            self.end_headers()
            self.wfile.write(b"a" * 1024)
            self.wfile.flush()
            opened = gate(query.get("id", "")).wait(10)
            self.wfile.write((b"b" if opened else b"x") * 1024)
            self.wfile.flush()
        elif path == "/open":
            gate(query.get("id", "")).set()
            self.send_body(200, b"open", "text/plain")
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Connection", "close")
            self.end_headers()
            block = b"x" * 65536
            try:
                while True:
                    self.wfile.write(block)
                    # Fast enough for any cap, slow enough not to hog the CPU.
                    time.sleep(0.002)
            except OSError:
                self.client_left(query.get("id"))
        elif path == "/bytes":
            size = int(query.get("size", "1048576"))
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            block = bytes(range(256)) * 1024
            sent = 0
            try:
                while sent < size:
                    piece = block[: min(len(block), size - sent)]
                    self.wfile.write(piece)
                    sent += len(piece)
            except OSError:
                self.client_left(query.get("id"))
        elif path == "/closed":
            with CLOSED_LOCK:
                answer = b"yes" if query.get("id") in CLOSED else b"no"
            self.send_body(200, answer, "text/plain")
        elif path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(FEED[:100])
            self.wfile.flush()
            self.close_connection = True
        elif parts[0] == "status" and len(parts) == 2:
            self.send_body(int(parts[1]), b"error page", "text/plain")
        elif path == "/html":
            self.send_body(200, HTML, "text/html; charset=utf-8")
        elif path == "/auth":
            expected = "Basic " + base64.b64encode(b"alice:s3cret").decode()
            if self.headers.get("Authorization") == expected:
                self.send_body(200, FEED)
            else:
                self.send_body(
                    401, b"who are you", "text/plain",
                    [("WWW-Authenticate", 'Basic realm="feeds"')],
                )
        else:
            self.send_body(404, b"no such route", "text/plain")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Clients that hang up early are what several tests are about.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The tests hold our stdin open; when they exit (even by a crash) it closes.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
