import numpy as np


def test(result, ans):
    np.testing.assert_array_equal(np.asarray(result), np.asarray(ans))
    return 1
