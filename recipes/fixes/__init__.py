"""Language- and tool-specific fixes used by the planners (pure where possible)."""
