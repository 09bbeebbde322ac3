from setuptools import setup

setup(cffi_modules=["pywar/_build.py:ffibuilder"])
