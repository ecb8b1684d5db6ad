"""A local HTTP server that answers every GET with the given status."""
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

STATUS = int(sys.argv[2])

class H(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<html><body><h1>Service Unavailable</h1></body></html>\n" if STATUS >= 400 else b"<p>Status: ok. Recent errors: 0 (error budget 99.9%)</p>\n"
        self.send_response(STATUS)
        if STATUS == 429:
            self.send_header("Retry-After", "30")
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
