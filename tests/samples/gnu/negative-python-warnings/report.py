import warnings


def legacy_total(items):
    warnings.warn("legacy_total() is deprecated; use total()", DeprecationWarning, stacklevel=2)
    return sum(items)


print("total:", legacy_total([1, 2, 3]), "- 0 errors")
