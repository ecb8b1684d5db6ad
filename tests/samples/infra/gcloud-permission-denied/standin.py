"""A loopback stand-in for Secret Manager that refuses as Google APIs do (403, an
error body with status PERMISSION_DENIED, as the API docs show): `python3 standin.py PORT`;
at most 20 requests or 25 seconds."""
import json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
BODY = json.dumps({"error": {"code": 403, "message": "Permission 'secretmanager.versions.access' denied for resource 'projects/ci-proj/secrets/deploy-key/versions/latest' (or it may not exist).", "status": "PERMISSION_DENIED"}}).encode()
class H(BaseHTTPRequestHandler):
    def answer(self):
        self.send_response(403); self.send_header("Content-Type", "application/json; charset=UTF-8"); self.send_header("Content-Length", str(len(BODY))); self.end_headers(); self.wfile.write(BODY)
    do_GET = do_POST = answer
    def log_message(self, *a): pass
s = HTTPServer(("127.0.0.1", int(sys.argv[1])), H); s.timeout = 1
end = time.monotonic() + 25
for _ in range(20):
    if time.monotonic() > end: break
    s.handle_request()
