from app.auth import token_for

print(token_for(7))
