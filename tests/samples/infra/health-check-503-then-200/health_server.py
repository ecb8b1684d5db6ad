"""A service warming up: /health answers 503 twice, then 200 (on 127.0.0.1:18778)."""

from http.server import BaseHTTPRequestHandler, HTTPServer

calls = 0


class Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        global calls
        calls += 1
        status = 503 if calls <= 2 else 200
        body = b"warming up\n" if status == 503 else b"ok\n"
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


HTTPServer(("127.0.0.1", 18778), Health).serve_forever()
