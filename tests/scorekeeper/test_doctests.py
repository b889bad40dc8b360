"""The examples in the engine's docstrings run and give what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["scorekeeper.cards", "scorekeeper.variants", "scorekeeper.match", "scorekeeper.record",
           "scorekeeper.scoring", "scorekeeper.simulate"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
