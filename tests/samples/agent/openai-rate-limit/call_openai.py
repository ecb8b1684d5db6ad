"""Send one chat completion with the OpenAI Python SDK to the API at argv[1].
SDK exceptions are not caught: what is printed is what the SDK raises."""

import sys

import openai

client = openai.OpenAI(base_url=sys.argv[1], api_key="sk-test", max_retries=0)
reply = client.chat.completions.create(
    model="gpt-4o",
    messages=[{"role": "user", "content": open("prompt.txt").read()}],
)
print(reply.choices[0].message.content)
