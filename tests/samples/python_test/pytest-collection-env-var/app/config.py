import os

# read once at import time: every module that imports the config needs it
DATABASE_URL = os.environ["APP_DATABASE_URL"]
