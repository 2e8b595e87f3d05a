# The full form: 6 x 6 x 8, 300 time units at gdot = 0.5 and at 0.25 (README.md), on the
# cpu backend and on cuda (dpd-fluid's default variant, mixed, with nlist=ballot: Lees-Edwards
# shear runs on the ballot list).
meso_validation_long(dpd-couette SUFFIX -cpu BACKEND cpu TIMEOUT 36000)
meso_validation_long(dpd-couette SUFFIX -cuda BACKEND cuda TIMEOUT 3600)
