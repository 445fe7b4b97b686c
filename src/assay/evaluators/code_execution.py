"""OpenCompass's type-aware comparison for code tests, as OpenCompass 0.5.4 has it (``opencompass.utils.code_execution``).

This module is what ``opencompass.utils.code_execution`` is when
:mod:`assay.opencompass` serves OpenCompass's names.  OpenCompass rewrites each
``assert actual == expected`` of a dataset's test program to call
:func:`type_aware_equal` under the name :data:`TYPE_AWARE_EQUAL_NAME`, so that
a value whose ``__eq__`` always answers ``True`` does not pass.  assay's own
code evaluators make the same comparison in the checking process of
:mod:`assay.sandbox`; these functions run in the calling process, for code
that uses OpenCompass's API.

>>> type_aware_equal([1, (2, 3)], [1, (2, 3)]), type_aware_equal(1, 1.0), type_aware_equal({'a': [1]}, {'a': [1]})
(True, False, True)
>>> make_assertions_type_aware('assert solve() == 1')
'assert __opencompass_type_aware_equal(solve(), 1)'
"""

from __future__ import annotations

from typing import Any

from assay.evaluators._code_exec import _TYPE_AWARE_EQUAL_SOURCE, harden_assertions
from assay.evaluators._code_exec import TYPE_AWARE_EQUAL_NAME as TYPE_AWARE_EQUAL_NAME  # the name tests call it by

__all__: list[str] = []  # served under OpenCompass's names only (assay.opencompass)


def _type_aware_equal() -> Any:
    namespace: dict[str, Any] = {}
    exec(_TYPE_AWARE_EQUAL_SOURCE, namespace)
    function = namespace["_assay_type_aware_equal"]
    function.__name__ = function.__qualname__ = "type_aware_equal"
    function.__module__ = __name__
    function.__doc__ = ("Equal and of the same type, containers element by element (mappings and sets matched one "
                        "to one); a comparison that raises or gives a non-bool is unequal.")
    return function


#: ``type_aware_equal(actual, expected)``: equal and of the same type, containers element by element
#: (mappings and sets matched one to one); a comparison that raises or gives a non-bool is unequal.
type_aware_equal = _type_aware_equal()

#: ``make_assertions_type_aware(source)``: each ``assert a == b`` of ``source`` calling
#: ``TYPE_AWARE_EQUAL_NAME(a, b)`` instead, rendered by :func:`ast.unparse`; source that does not
#: parse is returned unchanged.
make_assertions_type_aware = harden_assertions
