"""A tiny shop: money, carts and prices (the faultlens demo project)."""
