from setuptools import Extension, setup

setup(
    name="fastsum",
    version="0.1.0",
    ext_modules=[Extension("fastsum", ["fastsum.c"])],
)
