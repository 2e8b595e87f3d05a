# The full forms: 10 runs of 163840 particles (README.md), in double and, on a
# GPU, mixed.
meso_validation_long(srd-viscosity SUFFIX -double VARIANT precision=double TIMEOUT 36000)
meso_validation_long(srd-viscosity SUFFIX -mixed BACKEND cuda VARIANT precision=mixed TIMEOUT 7200)
