import jwt


def token_for(user_id: int) -> str:
    return jwt.encode({"sub": user_id}, "secret", algorithm="HS256")
