# The full form: 6 x 6 x 8, 300 time units at gdot = 0.5 and at 0.25 (README.md). The
# cpu backend (the cuda backend runs Lees-Edwards shear with nlist=ballot too, but
# its long form has not passed on a GPU yet).
meso_validation_long(dpd-couette BACKEND cpu TIMEOUT 36000)
