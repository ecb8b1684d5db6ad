"""Signatures of builtins, by module."""

import operator

module_info = {}
module_info[builtins] = {"abs": ["x"], "len": ["obj"]}
module_info[operator] = {"add": ["a", "b"]}
