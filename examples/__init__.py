"""Shipped example projects (data, not code): `broken-app/` is what
`faultlens demo` copies and recovers."""
