"""orders: load and save orders"""


def load(path):
    return open(path).read()


class Store:
    '''A store.'''

    def save(self, path, data):
        """saves the data"""
        open(path, "w").write(data)
