from settings import DEFAULTS

print(DEFAULTS)
