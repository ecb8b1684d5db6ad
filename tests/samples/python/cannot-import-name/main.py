from app.models import UserProfile

print(UserProfile("ada").name)
