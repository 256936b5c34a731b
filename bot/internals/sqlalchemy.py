"""SQLAlchemy's internals, every use of them (checked against SQLAlchemy 2.1).

A row the press path reads with a plain statement (bot/rows.py, the outbox) becomes an
instance of its model the way the ORM's own loading makes one (sqlalchemy/orm/loading.py):
the class manager's `new_instance` (the class's `__new__` and the ORM's bookkeeping, no
`__init__`), then the columns straight into the instance's `__dict__`, where the ORM's
attributes read them. `Mapper.class_manager` is documented; `ClassManager.new_instance` and
the values living in `__dict__` are not. Public alternative: the model's constructor, which
validates every field again (pydantic, through SQLModel), or a query through an ORM session
(its identity map, unit of work and flush were a third of the process's CPU,
docs/performance.md).

An upgrade: run tests/bot/test_internals.py, which fails if this stops working.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from sqlalchemy import inspect
from sqlalchemy.orm import configure_mappers

Model = TypeVar("Model")


def loaded_instance(model: type[Model], values: Mapping[Any, Any]) -> Model:
    """An instance of the mapped class `model` with `values` as its columns, belonging to
    no session, as if the ORM had loaded it (no validation: the column types have already
    turned the values into Python's)."""
    mapper = inspect(model)
    if not mapper.configured:
        # The ORM configures its mappers at its first query, and the ORM's attributes work
        # only then: a process reading its rows with plain statements may never make one.
        configure_mappers()
    instance: Model = mapper.class_manager.new_instance()
    instance.__dict__.update(values)
    return instance
