"""The project's own minimal runner: import each test module, call its tests."""
import test_cart

for name in sorted(dir(test_cart)):
    if name.startswith("test_"):
        print(f"running {name}")
        getattr(test_cart, name)()
print("all tests passed")
