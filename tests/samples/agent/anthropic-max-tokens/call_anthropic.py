"""Send one message with the Anthropic Python SDK to the API at argv[1].
SDK exceptions are not caught: what is printed is what the SDK raises."""

import sys

import anthropic

client = anthropic.Anthropic(base_url=sys.argv[1], api_key="sk-ant-test", max_retries=0, timeout=float(sys.argv[2]) if len(sys.argv) > 2 else 30)
reply = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    messages=[{"role": "user", "content": open("prompt.txt").read()}],
)
print(reply.content[0].text)
