"""mpgen from Python: batches of big integers on the GPU (through CuPy) and the CPU (through the
host's C++ compiler), from Python ints, gmpy2, NumPy or CuPy.

    import mpgen
    k = mpgen.compile(bits=256, ops=["mul", "add"])
    k.mul([3, 2**255], [5, 3])                 # [15, 3 * 2**255]
    f = mpgen.field("secp256k1")               # or mpgen.field(modulus=p)
    f.modmul(a, b)

A module's operations and their contracts come from the generator's manifest (help(k.mul)
says each one's operands, results and errors). Results come back as the first batch operand
came (a list of ints or mpz, a NumPy or CuPy array); an operation with a flag gives (values,
flags), one of several parts a tuple of them. A bad request raises RequestError, a bad operand
OperandError (or TypeError), a compiler that fails CompileError."""
from ..errors import RequestError
from .cpu import CompileError
from .module import Module, Operation, compile, field, gf_field, rns_set
from .values import OperandError

__all__ = ["CompileError", "Module", "OperandError", "Operation", "RequestError", "compile", "field", "gf_field",
           "rns_set"]
