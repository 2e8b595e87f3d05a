# The full form: 8 x 8 across, 2000 time units in 20 blocks (README.md), in
# double on any backend (named, since a GPU runs dpd-channel's default, mixed, unless told),
# and in mixed precision on a GPU.
meso_validation_long(dpd-slit-poiseuille SUFFIX -double VARIANT precision=double TIMEOUT 36000)
meso_validation_long(dpd-slit-poiseuille SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 7200)
