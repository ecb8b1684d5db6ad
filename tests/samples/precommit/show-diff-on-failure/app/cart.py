import sys
import os


def total(prices):  
    return sum( prices )
