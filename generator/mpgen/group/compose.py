"""Programs made of programs: an operation that runs others (Montgomery's three products,
a Newton iteration's) inlines their steps, each call's vectors under names of their own,
so that the group printer and the host executor see one flat program (Repeat apart) and
every product keeps its own plan."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from .program import All, Broadcast, CarryScan, Convolution, Handoff, Mirror, Neighbours, ProductRows, Program, Repeat, \
    Shape, ShiftDown, ShiftUp, Step, ThreadStep, Top

# The fields of each kind of group step that name vectors (ThreadStep's and Repeat's apart).
_VECTOR_FIELDS = {CarryScan: ("generate", "propagate", "carry_in", "carry", "out"), Top: ("vector", "above", "flag"),
                  Neighbours: ("vector", "out"), All: ("source", "out"), ProductRows: ("a", "b", "low", "high"),
                  Convolution: ("a", "b", "low", "high"), Mirror: ("vector", "out"),
                  Handoff: ("low", "high", "low_in", "high_in"), Broadcast: ("vector", "out"),
                  ShiftUp: ("vector", "incoming", "out"), ShiftDown: ("vector", "out")}
# Of those, the ones a step writes (Top clears its vector's top in place).
_WRITTEN = {CarryScan: ("carry", "out"), Top: ("vector", "flag"), Neighbours: ("out",), All: ("out",),
            ProductRows: ("low", "high"), Convolution: ("low", "high"), Mirror: ("out",),
            Handoff: ("low_in", "high_in"), Broadcast: ("out",), ShiftUp: ("out",), ShiftDown: ("out",)}


def renamed(step: Step, name: Callable[[str], str]) -> Step:
    """The step with every vector it names passed through name()."""
    if isinstance(step, ThreadStep):
        return replace(step, reads=tuple(map(name, step.reads)), writes=tuple((name(n), w) for n, w in step.writes))
    if isinstance(step, Repeat):
        return replace(step, body=tuple(renamed(s, name) for s in step.body), until=step.until and name(step.until))
    return replace(step, **{f: name(getattr(step, f)) for f in _VECTOR_FIELDS[type(step)] if getattr(step, f)})


def written(step: Step) -> set[str]:
    if isinstance(step, ThreadStep):
        return {n for n, _ in step.writes}
    if isinstance(step, Repeat):
        return set().union(*map(written, step.body))
    return {getattr(step, f) for f in _WRITTEN[type(step)] if getattr(step, f)}


def _with_width(step: Step, shape: Shape) -> Step:
    """A Top of the called program keeps the called program's width."""
    if isinstance(step, Top) and not step.bits:
        return replace(step, bits=shape.bits)
    if isinstance(step, Repeat):
        return replace(step, body=tuple(_with_width(s, shape) for s in step.body))
    return step


@dataclass(frozen=True)
class Outputs:
    """Where a call left its result, its high half (a full product) and its flag."""
    result: str
    high: str | None
    flag: str | None


class Composer:
    """Steps under construction for one shape's group: `call` inlines a program."""

    def __init__(self, shape: Shape, counter: list[int] | None = None):
        self.shape = shape
        self.steps: list[Step] = []
        self._counter = counter if counter is not None else [0]

    def call(self, program: Program, *inputs: str, into: str | None = None) -> Outputs:
        """program's steps on the vectors `inputs` (its operands, then its one-word
        operands); its other vectors are the call's own; its result goes to `into` where
        given (a vector the call does not read)."""
        params = program.operands + program.words
        if len(inputs) != len(params) or program.shape.threads != self.shape.threads or \
                program.shape.limbs_per_thread != self.shape.limbs_per_thread or into in inputs:
            raise ValueError(f"{program.name} called with {inputs} into {into} on {self.shape}")
        self._counter[0] += 1
        given = dict(zip(params, inputs)) | ({program.result: into} if into else {})
        prefix = f"{program.name}{self._counter[0]}_"

        def name(n: str) -> str:
            return given.get(n, prefix + n)
        steps = [renamed(_with_width(s, program.shape), name) for s in program.steps]
        if any(written(s) & set(inputs) for s in steps):
            raise ValueError(f"{program.name} writes one of its operands {inputs}")
        self.steps += steps
        return Outputs(name(program.result), program.high and name(program.high),
                       program.flag and name(program.flag))

    def step(self, step: Step) -> None:
        self.steps.append(step)

    def repeat(self, count: int, body: Callable[["Composer"], None], until: str | None = None) -> None:
        """body's steps, run `count` times (or fewer: Repeat's `until`)."""
        inner = Composer(self.shape, self._counter)
        body(inner)
        self.steps.append(Repeat(count, tuple(inner.steps), until))
