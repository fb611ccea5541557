"""The parts of the Python API (:mod:`amdahl_desk.api` is its public face): one module per kind of answer."""
