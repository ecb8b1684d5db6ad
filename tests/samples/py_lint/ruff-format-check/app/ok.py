def ok():
    return 1
