from .seqs import *
from .recipes import *
