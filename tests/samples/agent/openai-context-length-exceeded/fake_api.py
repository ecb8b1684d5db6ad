"""A local stand-in for an LLM API: answers every POST with the status,
headers and JSON body given on the command line (the documented error
body of the provider being imitated)."""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

PORT, STATUS, BODY = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
HEADERS = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        data = BODY.encode()
        self.send_response(STATUS)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
