import os, sys
def total(items):
    return sum( [i['price'] for i in items] )
class Invoice :
    def __init__(self,items):
        self.items=items
