"""A loopback stand-in for GitHub's REST API that answers as GitHub does
(the status and JSON error body its REST docs show): a write with a token
lacking the permission gets 403 "Resource not accessible by integration";
`/rate-limited/...` gets the primary rate limit's 403.
`python3 scripts/github_api_standin.py PORT`; at most 20 requests or 30 seconds.
The job.sh of tests/samples/infra/gha-github-* start it to capture curl's
real output against it."""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


def body(message: str, doc: str) -> bytes:
    return json.dumps({"message": message, "documentation_url": doc, "status": "403"}).encode()


class GitHub(BaseHTTPRequestHandler):
    def answer(self) -> None:
        if self.path.startswith("/rate-limited/"):
            data = body(
                "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated"
                " requests get a higher rate limit. Check out the documentation for more details.)",
                "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
            )
            extra = {"x-ratelimit-limit": "60", "x-ratelimit-remaining": "0"}
        else:
            data = body(
                "Resource not accessible by integration",
                "https://docs.github.com/rest/issues/labels#add-labels-to-an-issue",
            )
            extra = {}
        self.send_response(403)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = answer

    def log_message(self, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", int(sys.argv[1])), GitHub)
server.timeout = 1
deadline = time.monotonic() + 30
for _ in range(20):
    if time.monotonic() > deadline:
        break
    server.handle_request()
