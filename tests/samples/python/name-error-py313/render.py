import json


def render(user):
    return json.dumps({"name": user.name, "when": datetime.now().isoformat()})


class User:
    name = "ada"


print(render(User()))
