"""tomllib, from the standard library (3.11+) or its backport tomli."""
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

__all__ = ["tomllib"]
