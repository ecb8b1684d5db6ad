"""Generate content with the Google Gen AI Python SDK against the API at argv[1].
SDK exceptions are not caught: what is printed is what the SDK raises."""

import sys

from google import genai
from google.genai import types

client = genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=sys.argv[1]))
reply = client.models.generate_content(model="gemini-2.5-pro", contents=open("prompt.txt").read())
print(reply.text)
