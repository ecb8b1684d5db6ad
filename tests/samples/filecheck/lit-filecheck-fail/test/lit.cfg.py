import lit.formats

config.name = "adder"
config.test_format = lit.formats.ShTest(False)
config.suffixes = [".ll"]
config.substitutions.append(("FileCheck", "FileCheck-14"))
