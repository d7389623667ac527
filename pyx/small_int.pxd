# A small int's value without a call (small_int.h).
cdef extern from "small_int.h":
    bint si_small(object o, long long* value) noexcept
