import Foundation
import TestProcesses

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP server on 127.0.0.1 (a free port it picks) that misbehaves in the ways a feed
/// host can, each at its own path. Every answer starts as a well-formed feed with three
/// episodes, so that what goes wrong is the transfer, never the XML read so far:
///
/// - `/stall`: the headers and part of the body, then nothing for two minutes.
/// - `/trickle`: the headers and part of the body, then a byte every quarter second (so that
///   only the total timeout can end it, even on a loaded machine), for ever.
/// - `/endless`: episode after episode without end, as fast as the client reads.
/// - `/cut-length`: announces 200,000 bytes, sends 20,000, closes the connection.
/// - `/cut-chunked`: chunked; a few chunks, then the connection closes without the last one.
/// - `/cut-close`: no length, the feed up to the middle of the title of episode 500, then
///   the connection closes (which HTTP/1.0 framing cannot tell from the end of the body).
///
/// - `/hold/feed?id=I`, `/hold/fail?id=I`, `/hold/same?id=I`: noted as arrived, held until
///   `/release?id=I` (ten minutes at most), then answered with the whole feed, a 500, or a 304.
/// - `/arrived?id=I`: `yes` once a request for `/hold/...?id=I` has come, else `no`.
///
/// It exits when the test closes its standard input, so it cannot outlive the tests.
final class HostileServer: Sendable {
  let port: Int
  private let process: ChildProcess

  private init(port: Int, process: ChildProcess) {
    self.port = port
    self.process = process
  }

  static func start() throws -> HostileServer {
    let (process, port) = try ChildProcess.server("the hostile server", "python3", ["-c", script])
    return HostileServer(port: port, process: process)
  }

  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  func stop() { process.stop() }

  private static let script = #"""
    import http.server, socket, sys, threading, time

    HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
            b'<title>Hostile Host</title>\n'
            + b''.join(b'<item><title>Episode %d</title><guid>hostile-%d</guid></item>\n' % (i, i)
                       for i in range(3)))

    ARRIVED = set()
    RELEASES = {}
    LOCK = threading.Lock()

    def release(ident):
        with LOCK:
            return RELEASES.setdefault(ident, threading.Event())

    def item(number):
        return b'<item><title>Episode %d</title><guid>hostile-%d</guid></item>\n' % (number, number)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *arguments):
            pass

        def head(self, headers):
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()

        def do_GET(self):
            path, _, query = self.path.partition("?")
            ident = query.partition("id=")[2]
            try:
                self.answer(path, ident)
            except OSError:
                pass
            self.close_connection = True

        def small(self, status, body=b""):
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def answer(self, path, ident):
            if path.startswith("/hold/"):
                with LOCK:
                    ARRIVED.add(ident)
                release(ident).wait(600)
                if path == "/hold/feed":
                    body = HEAD + b"</channel></rss>\n"
                    self.head([("Content-Length", str(len(body)))])
                    self.wfile.write(body)
                elif path == "/hold/same":
                    self.send_response(304)
                    self.end_headers()
                else:
                    self.small(500)
            elif path == "/arrived":
                with LOCK:
                    self.small(200, b"yes" if ident in ARRIVED else b"no")
            elif path == "/release":
                release(ident).set()
                self.small(200, b"released")
            elif path == "/stall":
                self.head([("Content-Length", "100000")])
                self.wfile.write(HEAD)
                self.wfile.flush()
                time.sleep(120)
            elif path == "/trickle":
                self.head([("Content-Length", "100000")])
                self.wfile.write(HEAD + b"<description>")
                self.wfile.flush()
                for _ in range(14400):
                    time.sleep(0.25)
                    self.wfile.write(b"x")
                    self.wfile.flush()
            elif path == "/endless":
                self.head([("Connection", "close")])
                self.wfile.write(HEAD)
                number = 3
                while True:
                    self.wfile.write(b"".join(item(n) for n in range(number, number + 1000)))
                    number += 1000
                    time.sleep(0.001)
            elif path == "/cut-length":
                body = HEAD + b"".join(item(n) for n in range(3, 1000))
                self.head([("Content-Length", "200000")])
                self.wfile.write(body[:20000])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            elif path == "/cut-chunked":
                self.head([("Transfer-Encoding", "chunked")])
                for start in range(0, 300, 100):
                    chunk = (HEAD if start == 0 else b"") + b"".join(
                        item(n) for n in range(start + 3, start + 103))
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                    time.sleep(0.05)
                self.connection.shutdown(socket.SHUT_RDWR)
            elif path == "/cut-close":
                body = HEAD + b"".join(item(n) for n in range(3, 1000)) + b"</channel></rss>\n"
                cut = body.index(b"<title>Episode 500<") + len(b"<title>Episo")
                self.head([("Connection", "close")])
                self.wfile.write(body[:cut])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass

    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    """#
}
