"""A loopback stand-in for S3 that refuses every request as S3 does (403,
an AccessDenied error document): `python3 standin.py PORT`.  It serves at
most 20 requests or 30 seconds, then exits."""

import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

BODY = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>'
    b"<Message>Access Denied</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>"
)


class Refuse(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(403)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", int(sys.argv[1])), Refuse)
server.timeout = 1
deadline = time.monotonic() + 30
for _ in range(20):
    if time.monotonic() > deadline:
        break
    server.handle_request()
