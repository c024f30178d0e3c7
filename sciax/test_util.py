"""Checks of derivatives and batching, for users' own functions and tests."""

from sciax._src.public_test_util import (check_batching as check_batching,
                                         check_grads as check_grads,
                                         check_jvp as check_jvp,
                                         check_vjp as check_vjp,
                                         numerical_jvp as numerical_jvp)
