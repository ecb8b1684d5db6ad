import numpy
from setuptools import Extension, setup

setup(
    name="fastmean",
    version="0.1.0",
    ext_modules=[Extension("fastmean", ["fastmean.c"], include_dirs=[numpy.get_include()])],
)
