"""A loopback stand-in of the three GitHub REST endpoints pr-size-labeler
calls (pulls/N, issues/N/labels, issues/N/comments), in their documented
shapes: a pull request of 1,840 changed lines with no label yet."""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class API(BaseHTTPRequestHandler):
    def _send(self, body: object, status: int = 200) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.endswith("/pulls/42"):
            self._send({"number": 42, "additions": 1612, "deletions": 228, "labels": []})
        elif self.path.endswith("/issues/42/labels"):
            self._send([])
        else:
            self._send({"message": "Not Found"}, 404)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path.endswith("/comments"):
            url = "https://github.com/acme/shop/pull/42#issuecomment-1"
            self._send({"id": 1, "body": body.get("body"), "html_url": url}, 201)
        else:
            self._send([{"name": n} for n in body.get("labels", [])])

    def log_message(self, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), API)
print(server.server_port, flush=True)
sys.stdout.close()
server.serve_forever()
