"""mpgen's version, in a leaf that the printers and the command line import (the package's
__init__ re-exports it as mpgen.__version__)."""

__version__ = "0.1.0"
