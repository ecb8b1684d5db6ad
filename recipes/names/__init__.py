"""What an editor knows about names: per-ecosystem indexes of the names the
installed toolchain and packages provide (built lazily by asking the
toolchain itself, cached per toolchain version), the file's own undefined
names found the way a linter finds them, and the nearest name in scope."""
