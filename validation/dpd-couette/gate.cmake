# The full form: 6 x 6 x 8, 300 time units at gdot = 0.5 and at 0.25 (README.md). The
# cpu backend: Lees-Edwards shear is not provided by the cuda backend yet.
meso_validation_long(dpd-couette BACKEND cpu TIMEOUT 36000)
