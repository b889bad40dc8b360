"""The examples in the generator's docstrings run as written."""

import doctest

import datasets.layouts


def test_layout_examples():
    result = doctest.testmod(datasets.layouts)
    assert result.attempted > 0 and result.failed == 0
