"""Profiles the tests share: the lessons' training iteration and LLM request."""

from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings

TRAINING = [
    ("Input pipeline and host preparation", 100, Scaling.SERIAL),
    ("GPU matrix multiplications", 600, Scaling.PARALLEL),
    ("Other GPU kernels", 150, Scaling.PARALLEL),
    ("Gradient synchronization", 100, Scaling.COMMUNICATION),
    ("Miscellaneous overhead", 50, Scaling.SERIAL),
]
LLM = [
    ("Gateway, validation, routing", 40, Scaling.SERIAL),
    ("Scheduler waiting and batch formation", 60, Scaling.SERIAL),
    ("Prompt prefill", 300, Scaling.PARALLEL),
    ("Autoregressive decode", 900, Scaling.PARALLEL),
    ("Token streaming and completion work", 200, Scaling.SERIAL),
]


def profile_of(rows, optimizations=(), settings=None) -> Profile:
    return Profile([Component(n, t, s) for n, t, s in rows], list(optimizations), settings or Settings())


def training(k: float = 4, **settings) -> Profile:
    opt = Optimization("Reduced precision", ("GPU matrix multiplications",), k)
    return profile_of(TRAINING, [opt], Settings(**settings))


def llm(k: float = 2, **settings) -> Profile:
    opt = Optimization("Faster decode", ("Autoregressive decode",), k)
    return profile_of(LLM, [opt], Settings(**settings))


def share(name: str, f: float, k: float, total: float = 1000.0) -> Profile:
    """A two-component profile in which ``name`` is a share f of ``total``; one optimization of it by k."""
    rows = [(name, f * total, Scaling.PARALLEL), ("rest", (1 - f) * total, Scaling.SERIAL)]
    return profile_of(rows, [Optimization("opt", (name,), k)])
